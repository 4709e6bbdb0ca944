// The table setup page: the camera's picture, its areas drawn by dragging, colours learned from
// the dice on the picture on screen. Changes need the setup token from the link `companion serve` printed.
const SETUP_TOKEN_KEY = "vegas-setup-token";
const REFRESH_MS = 3000;        // a new picture and state this often
const WAITING_MS = 1000;        // before the camera's first picture, ask this often
const RINGS_MS = 8000;          // the picture a colour was learned from stays this long, its dice ringed
let setup = null;               // the server's state: frame size, areas, colours, file, camera status
let areas = {};                 // the areas as drawn here, in pixels of the camera's picture
let edited = false;             // areas changed here and not saved: a refresh keeps them
let chosen = "tray";
let drag = null;
let picture = null;             // the number of the picture on screen (learning uses that one)
let pictureUrl = null;
let rings = null;               // {boxes, until}: the dice a colour was just learned from
let timer = null;

function setupToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    localStorage.setItem(SETUP_TOKEN_KEY, hash.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(SETUP_TOKEN_KEY);
}

// The setup API with the setup token; a refusal names its areas as the page does.
async function setupApi(method, path, body) {
  const unauthorized = method === "GET" ? null : t("setup.token");
  return request(method, path, body, setupToken(), unauthorized, (values) => {
    for (const key of ["area", "other"]) if (values[key]) values[key] = areaLabel(values[key]);
    return values;
  });
}

function areaLabel(name) {
  if (name === "table" || name === "tray" || name === "slot") return t(`area.${name}`);
  return t("area.casino", { n: name });
}

function showProblem(message) {
  const box = document.getElementById("setup-problem");
  box.hidden = !message;
  box.textContent = message || "";
}

// what the page says above the picture: no picture yet, the camera stopped, the recording ended
function renderCamera() {
  const line = document.getElementById("setup-camera");
  const status = setup && setup.status;
  let text = "";
  let kind = "";
  if (setup && !setup.frame) [text, kind] = [t("setup.waiting"), "waiting"];
  else if (status && status.kind === "ended") [text, kind] = [t("setup.ended"), "ended"];
  else if (status && status.kind === "lost") [text, kind] = [t("setup.lost", { message: status.message }), "lost"];
  line.textContent = text;
  line.className = `setup-camera ${kind}`;
  line.hidden = !text;
  document.getElementById("setup-view").classList.toggle("stale", kind === "ended" || kind === "lost");
}

function renderStatus() {
  document.getElementById("setup-status").textContent = setup
    ? t("setup.status", { camera: setup.camera, file: setup.file, colours: setup.colours.join(", ") || "–" })
    : "";
  // the colours the game being played rolls that are not learned yet (none: no game, or all learned)
  const missing = (setup && setup.to_learn) || [];
  document.getElementById("setup-to-learn").textContent = missing.length
    ? t("setup.tolearn", { colours: missing.map((c) => `${c.colour} (${c.player || t("setup.neutral")})`).join(", ") })
    : "";
  document.querySelectorAll(".area-choice").forEach((button) => {
    button.textContent = areaLabel(button.dataset.area) + (areas[button.dataset.area] ? " ✓" : "");
    button.setAttribute("aria-checked", String(button.dataset.area === chosen));
    button.classList.toggle("chosen", button.dataset.area === chosen);
  });
  document.getElementById("setup-drawing").textContent = t("setup.drawing", { area: areaLabel(chosen) });
  renderCamera();
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// Each label where it is read whole and covers no other: inside its area's top left, else its
// other corners, else just outside it; always inside the picture.
function placeLabels(labels, w, h) {
  const placed = [];
  for (const { text, rect, short } of labels) {
    const [x, y, rw, rh] = rect;
    const pad = 4;
    if (text.getBBox().width > rw - 2 * pad) text.textContent = short;  // a narrow casino: its number
    const box = text.getBBox();
    const fits = (cx, cy) => ({
      x: Math.min(Math.max(cx, 0), w - box.width), y: Math.min(Math.max(cy, 0), h - box.height),
      width: box.width, height: box.height,
    });
    const candidates = [
      fits(x + pad, y + pad), fits(x + rw - box.width - pad, y + pad),
      fits(x + pad, y + rh - box.height - pad), fits(x + rw - box.width - pad, y + rh - box.height - pad),
      fits(x, y - box.height - pad), fits(x, y + rh + pad),
    ];
    const spot = candidates.find((c) => !placed.some((p) => overlaps(c, p))) || candidates[0];
    placed.push(spot);
    text.setAttribute("x", spot.x);
    text.setAttribute("y", spot.y + box.height * 0.8);  // the baseline, below the box's top
  }
}

function renderAreas() {
  const svg = document.getElementById("setup-areas");
  if (!setup || !setup.frame) { svg.replaceChildren(); return; }
  const [w, h] = setup.frame;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const ns = "http://www.w3.org/2000/svg";
  const shapes = [];
  const labels = [];
  // the chosen area last, so its outline and label are on top
  // labels of 1/24 of the picture's height, and never under 13 px on screen (a phone)
  const shown = document.getElementById("setup-frame").getBoundingClientRect().width || w;
  const fontSize = Math.round(Math.max(h / 24, (13 * w) / shown));
  const names = Object.keys(areas).filter((n) => areas[n]).sort((a, b) => (a === chosen) - (b === chosen));
  for (const name of names) {
    const [x, y, rw, rh] = areas[name];
    const box = document.createElementNS(ns, "rect");
    Object.entries({ x, y, width: rw, height: rh, class: `area ${name === chosen ? "chosen" : ""} ${name}` })
      .forEach(([k, v]) => box.setAttribute(k, v));
    const label = document.createElementNS(ns, "text");
    label.setAttribute("class", `area-label${name === chosen ? " chosen" : ""}`);
    label.setAttribute("font-size", fontSize);
    label.setAttribute("data-area", name);
    label.textContent = areaLabel(name);
    shapes.push(box);
    labels.push({ text: label, rect: areas[name], short: /^\d$/.test(name) ? name : areaLabel(name) });
  }
  const ringsNow = rings && rings.until > Date.now() ? rings.boxes : [];
  for (const [x, y, bw, bh] of ringsNow) {
    const ring = document.createElementNS(ns, "circle");
    Object.entries({ cx: x + bw / 2, cy: y + bh / 2, r: Math.max(bw, bh) * 0.8, class: "learned-ring" })
      .forEach(([k, v]) => ring.setAttribute(k, v));
    shapes.push(ring);
  }
  svg.replaceChildren(...shapes, ...labels.map((l) => l.text));
  placeLabels(labels, w, h);
}

async function refreshPicture(asked = false) {
  if (drag || !setup || !setup.frame) return;
  if (!asked && rings && rings.until > Date.now()) return;  // the learned dice stay ringed a while
  if (asked) rings = null;
  try {
    const response = await fetch(`/api/setup/frame.jpg?t=${Date.now()}`, { cache: "no-store" });
    if (!response.ok) return;
    const number = Number(response.headers.get("X-Picture"));
    const url = URL.createObjectURL(await response.blob());
    const img = document.getElementById("setup-frame");
    img.src = url;
    if (pictureUrl) URL.revokeObjectURL(pictureUrl);
    [picture, pictureUrl] = [number || null, url];
  } catch (err) {
    // the next refresh tries again; the line above the picture says when the camera is gone
  }
}

async function refreshState() {
  // the first picture, a game started, a colour learned elsewhere, the camera stopped: all change what is shown
  try {
    const now = await setupApi("GET", "/api/setup");
    const first = !setup || !setup.frame;
    setup = { ...now };
    if (first && setup.frame || !edited) areas = { table: setup.table, ...setup.zones };
    showProblem(setup.problem || "");
  } catch (err) {
    return;
  }
  renderStatus();
  renderAreas();
}

async function tick() {
  await refreshState();
  await refreshPicture();
  clearTimeout(timer);
  timer = setTimeout(tick, setup && setup.frame ? REFRESH_MS : WAITING_MS);
}

async function load() {
  try {
    setup = await setupApi("GET", "/api/setup");
  } catch (err) {
    showProblem(err.message);
    document.getElementById("setup-body").hidden = true;
    return false;
  }
  showProblem(setup.problem || "");
  areas = { table: setup.table, ...setup.zones };
  document.getElementById("setup-body").hidden = false;
  renderStatus();
  renderAreas();
  await refreshPicture(true);
  return true;
}

function pictureXY(event) {
  const view = document.getElementById("setup-frame").getBoundingClientRect();
  const [w, h] = setup.frame;
  const x = Math.min(Math.max(event.clientX - view.left, 0), view.width) * (w / view.width);
  const y = Math.min(Math.max(event.clientY - view.top, 0), view.height) * (h / view.height);
  return [x, y];
}

function startDrag(event) {
  if (!setup || !setup.frame) return;
  event.preventDefault();
  document.getElementById("setup-view").setPointerCapture(event.pointerId);
  drag = pictureXY(event);
}

function moveDrag(event) {
  if (!drag) return;
  const [x, y] = pictureXY(event);
  areas[chosen] = [Math.min(x, drag[0]), Math.min(y, drag[1]), Math.abs(x - drag[0]), Math.abs(y - drag[1])].map(Math.round);
  edited = true;
  renderAreas();
}

function endDrag() {
  if (!drag) return;
  drag = null;
  const rect = areas[chosen];
  if (rect && (rect[2] < 4 || rect[3] < 4)) delete areas[chosen];  // a tap, not a drag
  renderStatus();
  renderAreas();
}

function choose(name) {
  chosen = name;
  renderStatus();
  renderAreas();
}

async function saveAreas() {
  try {
    setup = await setupApi("POST", "/api/setup/areas", areas);
    areas = { table: setup.table, ...setup.zones };
    edited = false;
    showProblem(setup.problem || "");
    toast(t("setup.saved", { file: setup.file }), false);
  } catch (err) {
    showProblem(err.message);  // stays in view with the area it names picked, until fixed
    toast(err.message);
    const named = err.data && err.data.values && err.data.values.area;
    if (named && named in areas) chosen = named;
  }
  renderStatus();
  renderAreas();
}

async function learnColour() {
  const colour = document.getElementById("setup-colour").value;
  const button = document.getElementById("setup-learn");
  button.disabled = true;
  try {
    const answer = await setupApi("POST", "/api/setup/colours", { colour, picture });
    setup = answer;
    const { learned } = answer;
    rings = { boxes: learned.boxes, until: Date.now() + RINGS_MS };
    const said = t("setup.learned", { colour: learned.colour, n: learned.dice });
    const log = document.getElementById("setup-log");
    log.prepend(el("li", { class: learned.warnings.length ? "warning" : "" }, said,
      learned.note ? el("div", { class: "hint" }, learned.note) : null,
      learned.warnings.map((w) => el("div", { class: "error" }, w))));
    toast(said, false);
  } catch (err) {
    toast(err.message);
    const log = document.getElementById("setup-log");
    log.prepend(el("li", { class: "warning" }, el("div", { class: "error" }, err.message)));
  } finally {
    button.disabled = false;
  }
  renderStatus();
  renderAreas();
}

document.addEventListener("DOMContentLoaded", () => {
  setupToken();
  document.getElementById("setup-colour").replaceChildren(
    ...COLOURS.choices.map((c) => el("option", { value: c }, colourName(c))));
  document.querySelectorAll(".area-choice").forEach((button) =>
    button.addEventListener("click", () => choose(button.dataset.area)));
  const view = document.getElementById("setup-view");
  view.addEventListener("pointerdown", startDrag);
  view.addEventListener("pointermove", moveDrag);
  view.addEventListener("pointerup", endDrag);
  view.addEventListener("pointercancel", endDrag);
  document.getElementById("setup-frame").addEventListener("load", renderAreas);
  window.addEventListener("resize", renderAreas);  // the labels keep their size on screen
  document.getElementById("setup-refresh").addEventListener("click", () => refreshPicture(true));
  document.getElementById("setup-clear").addEventListener("click", () => {
    delete areas[chosen];
    edited = true;
    renderStatus();
    renderAreas();
  });
  document.getElementById("setup-save").addEventListener("click", saveAreas);
  document.getElementById("setup-learn").addEventListener("click", learnColour);
  document.addEventListener("languagechange", () => {
    document.querySelectorAll("#setup-colour option").forEach((o) => { o.textContent = colourName(o.value); });
    renderStatus();
    renderAreas();
  });
  // no camera: nothing to refresh; before the first picture, asked for every second until it comes
  load().then((watching) => { if (watching) timer = setTimeout(tick, setup.frame ? REFRESH_MS : WAITING_MS); });
});
