// Helpers shared by every page: money, colours, elements, the API with its token, messages.
// the game's colours, as the server names and draws them ({choices, defaults, swatches, light}:
// companion/web/colours.py); their names in each language are in i18n.js
const COLOURS = JSON.parse(document.getElementById("colours").textContent);

function cssColour(name) {
  if (COLOURS.swatches[name]) return COLOURS.swatches[name];
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${hash}, 60%, 45%)`;
}

function inkFor(name) {
  return COLOURS.light.includes(name) ? "#111" : "#fff";
}

function money(amount) {
  const lang = currentLanguage();
  const formatted = Number(amount).toLocaleString(lang === "en" ? "en-US" : lang);
  return t("money", { amount: formatted });
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false)
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const PIP_SPOTS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

function dieFace(colour, pips, big = false) {
  const face = el("span", {
    class: `die${big ? " big" : ""}`, style: `background:${cssColour(colour)};color:${inkFor(colour)}`,
    title: `${colour} ${pips}${big ? " Biggy" : ""}`, "data-colour": colour, "data-pips": pips, role: "img",
    "aria-label": `${colour} ${pips}${big ? " Biggy" : ""}`,
  });
  for (const spot of PIP_SPOTS[pips] || []) face.append(el("i", { class: `pip s${spot}` }));
  return face;
}

// who won, by name: "Winner: Ana", or "Shared win: Ana & Bo" when money and notes tie
function winnersText(game) {
  const names = game.winners.map((c) => (game.players.find((p) => p.colour === c) || { name: c }).name);
  return t(names.length > 1 ? "result.shared" : "result.winners", { names: listOf(names) });
}

// the new-game form set up as game ``gameId`` was: the same players, colours, edition and variants
function playAgainLink(gameId, style = "primary") {
  return el("a", { class: `button ${style} play-again`, href: `/?again=${encodeURIComponent(gameId)}` }, t("again"));
}

function banknote(value) {
  return el("span", { class: `banknote v${value / 10000}` }, money(value));
}

function toast(message, isError = true) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = isError ? "show error" : "show";
  clearTimeout(box._timer);
  box._timer = setTimeout(() => { box.className = ""; }, 5000);
}

function tokenFor(gameId) {
  return localStorage.getItem(`vegas-token-${gameId}`);
}

async function api(method, path, body, gameId) {
  return request(method, path, body, gameId ? tokenFor(gameId) : null);
}

// A JSON request with a bearer token (if any). A refusal becomes an Error in the page's language
// (``refusalText``), carrying the server's answer as ``data``; ``unauthorized`` is the message for
// a missing or wrong token; ``nameValues`` names the values a page knows better (its areas).
async function request(method, path, body, token, unauthorized = null, nameValues = (values) => values) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error(t("error.network"));
  }
  const data = await response.json().catch(() => ({}));
  if (response.status === 401 && unauthorized) throw Object.assign(new Error(unauthorized), { data });
  if (!response.ok) throw Object.assign(new Error(refusalText(data, response, nameValues)), { data });
  return data;
}

// A refusal in the page's language: the translation of its code, filled with its values (a colour
// named by its player, or by the colour's own name before a game has players); else the English.
function refusalText(data, response, nameValues = (values) => values) {
  const key = `error.${data.code}`;
  if (!data.code || !(key in (STRINGS[currentLanguage()] || {}))) {
    return data.error || `${response.status} ${response.statusText}`;
  }
  const values = { ...(data.values || {}) };
  if (values.colour && !values.player) values.player = colourName(values.colour);
  for (const name of ["colour", "many_look", "few_look"]) if (values[name]) values[name] = colourName(values[name]);
  return t(key, nameValues(values));
}

document.addEventListener("DOMContentLoaded", () => {
  const picker = document.getElementById("language");
  picker.value = currentLanguage();
  picker.addEventListener("change", () => {
    localStorage.setItem("vegas-language", picker.value);
    translatePage();
    document.dispatchEvent(new Event("languagechange"));
  });
  translatePage();
});
