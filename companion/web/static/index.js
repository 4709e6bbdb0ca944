// New game form and the list of games on this table.

function playerRow(index) {
  const colour = el("select", { name: `colour-${index}`, "aria-label": t("new.colour") },
    COLOURS.choices.map((c) => el("option", { value: c }, colourName(c))));
  colour.value = COLOURS.defaults[index] || COLOURS.choices[index];
  const name = el("input", { name: `name-${index}`, placeholder: t("new.name"), "aria-label": t("new.name"),
    value: "", autocomplete: "off" });
  return el("div", { class: "player-row" }, el("span", { class: "seat" }, index + 1), name, colour);
}

function setPlayerCount(count) {
  const rows = document.getElementById("player-rows");
  while (rows.children.length < count) rows.append(playerRow(rows.children.length));
  while (rows.children.length > count) rows.lastElementChild.remove();
}

async function createGame(event) {
  event.preventDefault();
  const form = event.target;
  // once a name is typed, a row left blank is a seat nobody took; with none typed, each row plays
  const all = [...document.querySelectorAll(".player-row")];
  const named = all.filter((row) => row.querySelector("input").value.trim());
  const rows = named.length ? named : all;
  const players = rows.map((row) => {
    const colour = row.querySelector("select").value;
    // a player left unnamed is named after their colour, in the page's language ("Rojo")
    const colourWord = colourName(colour);
    const name = row.querySelector("input").value.trim() || colourWord[0].toUpperCase() + colourWord.slice(1);
    return { name, colour };
  });
  const body = {
    players, edition: form.edition.value, neutral: form.neutral.checked, slot: form.slot.checked,
    unclaimed: form.unclaimed.value,
  };
  // a game set up again keeps its neutral dice's colour while its players keep theirs
  if (form.neutral.checked && form.dataset.neutralColour) body.neutral_colour = form.dataset.neutralColour;
  try {
    const created = await api("POST", "/api/games", body);
    localStorage.setItem(`vegas-token-${created.id}`, created.token);
    location.href = `/games/${created.id}`;
  } catch (err) {
    document.getElementById("form-error").textContent = err.message;
  }
}

// ?again=ID: the form set up as that game was (players and colours in their seats, edition, variants)
async function setUpAsBefore(gameId) {
  const form = document.getElementById("new-game-form");
  let game;
  try {
    game = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
  } catch (err) {
    document.getElementById("form-error").textContent = t("again.missing", { id: gameId });
    return;
  }
  setPlayerCount(game.players.length);
  document.querySelectorAll(".player-row").forEach((row, i) => {
    const { name, colour } = game.players[i];
    row.querySelector("input").value = name;
    const select = row.querySelector("select");
    if (![...select.options].some((o) => o.value === colour)) select.append(el("option", { value: colour }, colour));
    select.value = colour;
  });
  form.edition.value = game.edition;
  form.neutral.checked = Boolean(game.neutral);
  form.slot.checked = game.slot;
  form.unclaimed.value = game.unclaimed_rule;
  form.dataset.neutralColour = game.neutral || "";
  const note = document.getElementById("form-note");
  note.textContent = t("again.note", { names: listOf(game.players.map((p) => p.name)) });
  note.hidden = false;
}

async function listGames() {
  const list = document.getElementById("game-list");
  try {
    const { games } = await api("GET", "/api/games");
    list.replaceChildren(...(games.length ? games.map((g) => el("li", {},
      el("a", { href: `/games/${g.id}`, class: "game-link" }, g.title,
        g.damaged ? el("small", { class: "damaged-mark" }, ` — ${t("list.damaged", { event: g.damaged.event })}`)
          : el("small", {}, ` — ${t(`edition.short.${g.edition}`)}, ${g.over ? t("game.over") : t("history.round", { n: g.round })}`,
            ` · ${g.created.replace("T", " ").slice(0, 16)}`)))) : [el("li", {}, t("new.none"))]));
  } catch (err) {
    list.replaceChildren(el("li", { class: "error" }, err.message));
  }
}

document.addEventListener("DOMContentLoaded", () => {
  setPlayerCount(3);
  document.getElementById("add-player").addEventListener("click", () =>
    setPlayerCount(Math.min(5, document.querySelectorAll(".player-row").length + 1)));
  document.getElementById("remove-player").addEventListener("click", () =>
    setPlayerCount(Math.max(2, document.querySelectorAll(".player-row").length - 1)));
  document.getElementById("new-game-form").addEventListener("submit", createGame);
  document.addEventListener("languagechange", () => {
    document.querySelectorAll(".player-row input").forEach((input) => {
      input.placeholder = t("new.name"); input.setAttribute("aria-label", t("new.name"));
    });
    document.querySelectorAll(".player-row select option").forEach((option) => {
      option.textContent = colourName(option.value);
    });
    listGames();
  });
  const again = new URLSearchParams(location.search).get("again");
  if (again) setUpAsBefore(again);
  listGames();
});
