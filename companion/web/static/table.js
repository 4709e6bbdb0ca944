// The table view: casinos, notes, dice, whose turn, roll entry, placement, round results. Live via SSE.
const root = document.getElementById("table");
const GAME = root.dataset.game;
const JOIN_BASE = root.dataset.joinBase;
let state = null;
let shownRounds = null;     // rounds already shown (the round-end dialog shows only new ones)
let entry = [];             // dice entered by hand for the current roll
let entryKey = null;        // which roll the entry belongs to (resets when the turn moves on)
let cameraDice = null;      // the camera's reading being corrected
let cameraVersion = null;
let selectedDie = null;
let byHand = false;         // the roll entry opened while the camera watches
let advice = null;          // the worth of each value of the roll waiting (GET …/advice), when hints are on
let adviceFor = null;       // the moment (events so far) the advice is for
let review = null;          // the game's review (GET …/review), for the round-end dialog
let chances = null;         // each player's chance to win (GET …/chances), asked by a tap

function nameOf(colour) {
  const player = state.players.find((p) => p.colour === colour);
  return player ? player.name : `${colourName(colour)} (${t("roll.neutral")})`;
}

function canControl() { return Boolean(tokenFor(GAME)); }

function takeTokenFromLink() {
  const match = location.hash.match(/token=([\w-]+)/);
  if (match) {
    localStorage.setItem(`vegas-token-${GAME}`, match[1]);
    history.replaceState(null, "", location.pathname);
  }
}

// One command at a time: a second tap while the first is on its way (a double tap on "Roll
// virtual dice") does nothing, rather than being refused by the server a moment later.
let commandUnderWay = false;

async function command(path, body) {
  if (commandUnderWay) return;
  commandUnderWay = true;
  try {
    const result = await api("POST", `/api/games/${GAME}/${path}`, body, GAME);
    render(result.state || result);
  } catch (err) {
    toast(err.message);
  } finally {
    commandUnderWay = false;
  }
}

// ------------------------------------------------------------------ status and players
function renderStatus() {
  // the round, and whose star it is: the start player, who rolls first this round
  const round = t("round", { n: state.round, total: state.rounds_total });
  document.getElementById("round-label").textContent = state.over ? t("game.over")
    : state.start_player ? `${round} · ${t("player.starts", { name: nameOf(state.start_player) })}` : round;
  const turn = document.getElementById("turn-label");
  if (state.over) {
    turn.textContent = winnersText(state);
    turn.style.color = "";
  } else {
    const key = state.phase === "neutral_roll" ? "turn.neutral" : "turn";
    turn.textContent = t(key, { name: nameOf(state.current_player) });
    turn.style.setProperty("--player", cssColour(state.current_player));
  }
  document.getElementById("undo").hidden = !canControl() || state.events <= 1;
  const hints = document.getElementById("hints");
  hints.checked = state.hints;
  hints.disabled = !canControl();
  document.getElementById("hints-switch").hidden = state.over;
  document.getElementById("chances-button").hidden = state.over;
  document.getElementById("hints-switch").title = t("hints.policy");
  document.getElementById("readonly-note").hidden = canControl();
  const camera = document.getElementById("camera-status");
  camera.hidden = !state.camera;
  if (state.camera) {
    const look = state.camera.ended ? "ended" : state.camera.ok ? "ok"
      : ["blind", "dim", "colourless", "calibration"].includes(state.camera.kind) ? state.camera.kind : "lost";
    // a calibration that does not fit the camera is mended on the table setup page: link to it
    camera.replaceChildren(look === "calibration"
      ? el("a", { href: "/setup", class: "camera-setup-link" }, t(`camera.${look}`)) : t(`camera.${look}`));
    camera.className = `camera-status ${look}`;
    camera.title = state.camera.message || "";
  }
}

function renderPlayers() {
  const box = document.getElementById("players");
  const standing = Object.fromEntries(state.standings.map((s) => [s.colour, s]));
  box.replaceChildren(...state.players.map((p) => {
    const hand = state.hands[p.colour];
    const held = hand ? [t("dice.held", { n: hand.own + hand.big }),
      hand.big ? ` (${t("roll.biggy")})` : "", hand.neutral ? ` + ${hand.neutral} ${t("roll.neutral")}` : ""].join("") : "";
    return el("div", { class: `player${p.colour === state.current_player ? " current" : ""}`,
      style: `--player:${cssColour(p.colour)}`, "data-colour": p.colour },
      el("span", { class: "swatch", style: `background:${cssColour(p.colour)}` }),
      el("div", {}, el("div", { class: "player-name" }, p.name, p.colour === state.start_player
        ? el("span", { class: "start-star", title: t("player.start"), "aria-label": t("player.start") }, " ★") : null),
        el("div", { class: "player-meta" }, held)),
      el("div", { class: "player-money" }, money(standing[p.colour].money),
        el("small", {}, t("banknotes", { n: standing[p.colour].banknotes })),
        chances && chances.events === state.events
          ? el("small", { class: "player-chance" }, t("chances.of", { chance: percent(chances.chances[p.colour]) })) : null));
  }));
}

// ------------------------------------------------------------------ casinos
function diceGroups(groups, cancelled = new Set(), note = () => null) {
  return el("div", { class: "dice-groups" }, groups.map((g) =>
    el("div", { class: `dice-group${cancelled.has(g.colour) ? " cancelled" : ""}`, "data-colour": g.colour },
      g.pips.map((p, i) => dieFace(g.colour, p, i < g.big)),
      el("span", { class: "count" }, `×${g.count}`), note(g.colour))));
}

// how a casino stands if the round ended now: who would take which note, which colours would cancel
function standingNote(casino) {
  const takes = Object.fromEntries(casino.leading.map((p) => [p.colour, p.banknote]));
  const cancelled = new Set(casino.cancelled);
  return (colour) => cancelled.has(colour) ? el("span", { class: "standing tied" }, t("casino.tied"))
    : colour in takes ? el("span", { class: "standing leads" }, t("casino.takes", { note: money(takes[colour]) })) : null;
}

function renderCasinos() {
  const box = document.getElementById("casinos");
  box.classList.toggle("final", state.over);
  if (state.over) {  // the game is over: the final standings take the casinos' place
    box.replaceChildren(el("h2", { class: "winner" }, winnersText(state)), standingsList(),
      el("div", { class: "row" }, playAgainLink(state.id),
        el("a", { class: "button secondary", id: "open-review", href: `/games/${GAME}/review` }, t("review.open"))));
    return;
  }
  const source = state.casinos.length ? state.casinos : [];
  box.replaceChildren(...source.map((c) => el("article", { class: `casino${c.casino === "slot" ? " slot" : ""}`, "data-casino": c.casino },
    el("header", {}, c.casino === "slot" ? el("span", { class: "slot-icon" }, "777") : dieFace("white", Number(c.casino)),
      el("span", { class: "casino-label" }, c.casino === "slot" ? "Slot" : `Casino ${c.casino}`)),
    el("div", { class: "notes" }, c.banknotes.map(banknote)),
    diceGroups(c.dice, new Set(c.cancelled), standingNote(c)))));
}

// ------------------------------------------------------------------ the action panel
function renderAction() {
  const box = document.getElementById("action");
  box.hidden = state.over;  // the final standings stand where the casinos were
  if (state.over) return;
  if (!canControl()) {
    // A watching tablet sees the roll waiting to be placed, without the buttons.
    box.hidden = state.phase !== "place";
    if (state.phase === "place") box.replaceChildren(el("h2", {}, t("roll.choose")),
      el("div", { class: "roll-values watching" }, state.last_roll.by_value.map((group) =>
        el("div", { class: "value-group", "data-value": group.value }, el("span", { class: "value-number" }, group.value),
          group.dice.map((d) => dieFace(d.colour, group.value, d.big)), worthOf(group.value, String(group.value))))),
      hintsNote() || "");
    return;
  }
  if (state.phase === "place") box.replaceChildren(...placementButtons().filter(Boolean));
  else box.replaceChildren(...rollEntry());
}

// ------------------------------------------------------------------ hints: the worth of each value
// Asked once per roll while the table has hints on; the page draws again when the answer comes.
function wantAdvice() {
  if (!state.hints || state.phase !== "place") return;
  const moment = state.events;
  if (adviceFor === moment) return;
  adviceFor = moment;
  advice = null;
  api("GET", `/api/games/${GAME}/advice`).then((answer) => {
    if (adviceFor === moment) { advice = answer; renderAction(); }
  }).catch(() => { /* a roll placed meanwhile: the next one asks again */ });
}

function worthOf(value, casino) {
  if (!state.hints) return null;
  if (!advice) return el("span", { class: "worth pending" }, "…");
  const choice = advice.choices.find((c) => c.value === value && c.casino === casino);
  if (!choice) return null;
  // ranked by the chance to win; a choice within error of the best says so
  const best = choice === advice.choices[0];
  const same = !best && choice.about_the_same;
  return el("span", { class: `worth${best ? " best" : ""}${same ? " same" : ""}`, "data-worth": choice.money,
    "data-chance": choice.chance },
    el("span", { class: "chance" }, t("hints.chance", { chance: percent(choice.chance) })), " ",
    el("span", {}, t("hints.money", { money: money(choice.money) })), " ",
    choice.stderr ? el("span", { class: "error-bar" }, t("hints.error", { error: errorText(choice.stderr) })) : null,
    same ? el("span", { class: "same-note" }, t("hints.same")) : null);
}

function hintsNote() {
  return state.hints ? el("p", { class: "hint worth-note", title: advice ? advice.policy : "" },
    advice ? t("hints.policy") : t("hints.wait")) : null;
}

function placementButtons() {
  const roll = state.last_roll;
  const slotOpen = new Set(state.placements.filter((p) => p.casino === "slot").map((p) => p.value));
  return [el("h2", {}, t("roll.choose")),
    el("div", { class: "roll-values" }, roll.by_value.map((group) => el("div", { class: "value-choice" },
      el("button", { class: `primary big value${state.proposal && state.proposal.value === group.value ? " proposed" : ""}`,
        "data-value": group.value,
        onclick: () => command("placements", { value: group.value }) },
        el("span", { class: "value-number" }, group.value),
        el("span", { class: "value-dice" }, group.dice.map((d) => dieFace(d.colour, group.value, d.big)))),
      worthOf(group.value, String(group.value)),
      slotOpen.has(group.value) ? el("button", { class: "secondary slot-choice", "data-value": group.value,
        onclick: () => command("placements", { value: group.value, casino: "slot" }) }, `777 ${t("action.slot")}`) : null,
      slotOpen.has(group.value) ? worthOf(group.value, "slot") : null))),
    hintsNote()];
}

// a kind of die the roller holds ({colour, big, count} of state.expected_roll), as the page names it
function kindLabel(kind) {
  return `${nameOf(kind.colour).split(" (")[0]}${kind.big ? ` ${t("roll.biggy")}` : ""}`;
}

// how many of ``dice`` are of that kind (a die without ``big`` is not a Biggy)
function countOfKind(dice, kind) {
  return dice.filter((d) => d.colour === kind.colour && Boolean(d.big) === kind.big).length;
}

function rollEntry() {
  const key = `${state.events}`;
  if (entryKey !== key) { entry = []; entryKey = key; byHand = false; }
  const total = state.expected_roll.reduce((n, kind) => n + kind.count, 0);
  const rows = state.expected_roll.map((kind) => {
    const have = countOfKind(entry, kind);
    const label = `${kindLabel(kind)} ${have}/${kind.count}`;
    return el("div", { class: "entry-row", "data-colour": kind.colour, "data-big": kind.big },
      el("span", { class: "entry-label" }, el("span", { class: "swatch", style: `background:${cssColour(kind.colour)}` }), label),
      [1, 2, 3, 4, 5, 6].map((pips) => el("button", { class: "pip-button", "data-pips": pips, disabled: have >= kind.count,
        onclick: () => { entry.push({ colour: kind.colour, pips, big: kind.big }); renderAction(); } }, pips)));
  });
  const entered = el("div", { class: "entered" }, entry.map((d, i) =>
    el("button", { class: "entered-die", title: "remove", onclick: () => { entry.splice(i, 1); renderAction(); } },
      dieFace(d.colour, d.pips, d.big))));
  // While the camera watches, rolls come from the tray: entering one is the way round, not the way.
  const watching = Boolean(state.camera && state.camera.ok && !state.camera.ended);
  if (watching && !byHand) {
    return [el("h2", {}, t("camera.watching")),
      el("button", { class: "secondary", id: "enter-by-hand", onclick: () => { byHand = true; renderAction(); } },
        t("action.byhand"))];
  }
  return [
    el("div", { class: "row" },
      el("button", { class: `${watching ? "secondary" : "primary big"}`, id: "virtual-roll",
        onclick: () => command("rolls/virtual") }, t("action.virtual"))),
    el("h2", {}, t("roll.enter")), el("p", { class: "hint" }, t("roll.tap")),
    ...rows, entered,
    el("div", { class: "row" },
      el("span", {}, t("roll.entered", { n: entry.length, total })),
      el("button", { class: "secondary", onclick: () => { entry = []; renderAction(); } }, t("action.clear")),
      el("button", { class: "primary", id: "record-roll", disabled: entry.length !== total,
        onclick: () => command("rolls", { dice: entry }) }, t("action.record"))),
  ];
}

function standingsList() {
  return el("ol", { class: "standings" }, state.standings.map((s) => el("li", {},
    el("span", { class: "swatch", style: `background:${cssColour(s.colour)}` }),
    ` ${nameOf(s.colour)} — ${money(s.money)} (${t("banknotes", { n: s.banknotes })})`)));
}

// ------------------------------------------------------------------ camera correction
// How the dice being corrected stand against what the roller holds: a count per kind, the dice of
// a colour the roll cannot hold, and whether the roll fits (the rules' own test).
function cameraTally(dice) {
  const kinds = state.expected_roll.map((kind) => ({ kind, have: countOfKind(dice, kind) }));
  const foreign = dice.length - kinds.reduce((n, k) => n + k.have, 0);  // of no kind the roller holds
  const items = kinds.map(({ kind, have }) => el("span", { class: `tally-item${have === kind.count ? " ok" : ""}` },
    el("span", { class: "swatch", style: `background:${cssColour(kind.colour)}` }), ` ${kindLabel(kind)} ${have}/${kind.count}`));
  if (foreign) items.push(el("span", { class: "tally-item" }, t("camera.foreign", { n: foreign })));
  const fits = !foreign && kinds.every(({ kind, have }) => have === kind.count);
  return { fits, view: el("div", { class: "tally", id: "camera-tally" }, items) };
}

// The dice as seen, each named as a kind of die the roller holds (its own colour kept where it
// is one), when there are as many as the roller rolled; null otherwise.
function namedAsTheRollers(dice) {
  const left = state.expected_roll.map((kind) => ({ ...kind }));
  if (dice.length !== left.reduce((n, kind) => n + kind.count, 0)) return null;
  const named = dice.map((d) => {
    const own = left.find((k) => k.count > 0 && k.colour === d.colour && Boolean(k.big) === Boolean(d.big));
    if (own) { own.count -= 1; return { ...d }; }
    return null;
  });
  return named.map((d, i) => {
    if (d) return d;
    const kind = left.find((k) => k.count > 0);
    kind.count -= 1;
    return { colour: kind.colour, pips: dice[i].pips, big: kind.big };
  });
}

// Whether a pick for die ``index`` can go to the camera as a fix: the dice on the page are the
// camera's, but for that die (a die added or taken away, or another edited, is recorded whole).
function fixesCameraDie(pending, index) {
  if (index >= pending.dice.length || cameraDice.length !== pending.dice.length) return false;
  return cameraDice.every((d, i) => i === index
    || (d.colour === pending.dice[i].colour && d.pips === pending.dice[i].pips && Boolean(d.big) === Boolean(pending.dice[i].big)));
}

// Tell the server what die ``index`` shows: it keeps the fix with the die's crop, and records the
// roll once no die the camera was unsure of is left; the next ringed die is then offered.
async function fixCameraDie(pending, index, pips) {
  const die = { ...cameraDice[index], pips };
  cameraDice[index] = die;
  selectedDie = null;
  await command("camera/fix", { version: pending.version, die: index, colour: die.colour, pips, big: Boolean(die.big) });
  const still = state.camera_roll;
  if (!still || still.version !== pending.version) return;
  if (!(still.fixed || []).includes(index)) cameraDice[index] = { ...still.dice[index] };  // refused: as it was
  if ((still.unsure || []).length) selectedDie = still.unsure[0];
  renderCameraCorrection();
}

const RING = 1.35;  // a ring's size in the die's box: round the die, clear of its edges

// The camera's picture with a ring on every die the camera is unsure of; a tap on any die (ringed
// or not) opens the pip picker for it. ``aligned``: the dice on the page are still the camera's,
// one for one (none added or taken away by hand), so a ring names the die it circles.
function cameraPicture(pending, unsure, aligned) {
  const fixed = new Set(pending.fixed || []);
  const rings = (aligned && pending.boxes || []).map(([x, y, w, h], i) => el("button", {
    class: `die-ring${unsure.has(i) ? " unsure" : ""}${fixed.has(i) ? " fixed" : ""}${i === selectedDie ? " selected" : ""}`,
    "data-index": i, style: `left:${(x + w / 2) * 100}%;top:${(y + h / 2) * 100}%;width:${w * RING * 100}%;height:${h * RING * 100}%`,
    "aria-label": t("camera.die", { n: i + 1, pips: cameraDice[i] ? cameraDice[i].pips : "?" }),
    onclick: () => { selectedDie = i === selectedDie ? null : i; renderCameraCorrection(); } }));
  return el("div", { class: "camera-picture" },
    el("img", { class: "camera-frame", src: `/api/games/${GAME}/camera/frame.jpg?v=${pending.version}`, alt: "camera" }),
    rings);
}

function renderCameraCorrection() {
  const box = document.getElementById("camera-correction");
  const pending = state.camera_roll;
  box.hidden = !pending || !canControl() || state.over;
  if (box.hidden) { cameraDice = null; cameraVersion = null; return; }
  if (cameraVersion !== pending.version) {
    cameraVersion = pending.version;
    cameraDice = pending.dice.map((d) => ({ ...d }));
    selectedDie = null;
  } else if (cameraDice.length === pending.dice.length) {
    for (const i of pending.fixed || []) cameraDice[i] = { ...pending.dice[i] };  // fixed on another device too
  }
  const colours = [...new Set(state.expected_roll.map((k) => k.colour))];
  const canBeBig = state.expected_roll.some((k) => k.big);
  const aligned = cameraDice.length === pending.dice.length;
  const unsure = new Set(aligned ? pending.unsure || [] : []);
  const chips = cameraDice.map((d, i) => el("button", {
    class: `entered-die${i === selectedDie ? " selected" : ""}${unsure.has(i) ? " unsure" : ""}`,
    "data-index": i, onclick: () => { selectedDie = i === selectedDie ? null : i; renderCameraCorrection(); } },
    dieFace(d.colour, d.pips, d.big)));
  const chooser = selectedDie === null ? null : el("div", { class: "chooser" },
    pending.boxes && aligned
      ? el("img", { class: "die-zoom", alt: "", src: `/api/games/${GAME}/camera/dice/${selectedDie}.jpg?v=${pending.version}` })
      : null,
    el("p", { class: "hint chooser-hint" }, t("camera.pick", { n: selectedDie + 1 })),
    [1, 2, 3, 4, 5, 6].map((p) => el("button", {
      class: `pip-button${cameraDice[selectedDie].pips === p ? " current" : ""}`, "data-pips": p,
      onclick: () => {
        if (fixesCameraDie(pending, selectedDie)) { fixCameraDie(pending, selectedDie, p); return; }
        cameraDice[selectedDie].pips = p; selectedDie = null; renderCameraCorrection(); } }, p)),
    colours.map((c) => el("button", {
      class: `secondary colour-choice${cameraDice[selectedDie].colour === c ? " current" : ""}`, "data-colour": c,
      onclick: () => { cameraDice[selectedDie].colour = c; renderCameraCorrection(); } },
      el("span", { class: "swatch", style: `background:${cssColour(c)}` }), ` ${nameOf(c)}`)),
    canBeBig ? el("button", { class: "secondary", onclick: () => {
      cameraDice[selectedDie].big = !cameraDice[selectedDie].big; renderCameraCorrection(); } }, t("roll.biggy")) : null,
    el("button", { class: "secondary", onclick: () => { cameraDice.splice(selectedDie, 1); selectedDie = null;
      renderCameraCorrection(); } }, "✕"));
  const tally = cameraTally(cameraDice);
  const taken = tally.fits ? null : namedAsTheRollers(cameraDice);
  // the rules give their reason in English; the tally says it in every language
  const reason = pending.kind !== "unsure" && currentLanguage() === "en" ? el("p", { class: "error" }, pending.problem) : null;
  // with each die's place on the picture the doubted dice are ringed there, and a tap tells one
  const ringed = pending.kind === "unsure" && Boolean(pending.boxes) && unsure.size > 0;
  const name = nameOf(state.current_player);
  const heading = pending.kind !== "unsure" ? t("camera.fix", { name })
    : t(ringed ? "camera.unsure" : "camera.check", { n: unsure.size, name });
  box.replaceChildren(...[
    el("h2", {}, heading),
    ringed ? el("p", { class: "hint", id: "camera-tap-hint" }, t("camera.tap", { n: unsure.size })) : null,
    reason,
    cameraPicture(pending, unsure, aligned),
    el("div", { class: "entered" }, chips,
      el("button", { class: "secondary", id: "camera-add", onclick: () => {
        cameraDice.push({ colour: state.current_player, pips: 1, big: false });
        selectedDie = cameraDice.length - 1; renderCameraCorrection(); } }, "+")),
    chooser,
    tally.view,
    el("div", { class: "row" },
      el("button", { class: "primary", id: "camera-record", disabled: !tally.fits,
        onclick: () => command("rolls", { dice: cameraDice }) }, t("action.record")),
      // one tap on: the dice as seen, named as the roller's own; the camera reads again; or by hand
      taken ? el("button", { class: "primary", id: "camera-take", onclick: () => command("rolls", { dice: taken }) },
        t("camera.take", { name: nameOf(state.current_player) })) : null,
      el("button", { class: "secondary", id: "camera-read-again", onclick: () => command("camera/read-again") },
        t("camera.again")),
      el("button", { class: "secondary", id: "camera-by-hand", onclick: () => { byHand = true; command("camera/dismiss"); } },
        t("action.byhand"))),
  ].filter(Boolean));
}

// ------------------------------------------------------------------ this round's rolls (to fix one)
let fixing = null;  // {event, dice}

function renderRollLog() {
  const box = document.getElementById("roll-log");
  const rolls = (state.round_rolls || []);
  box.hidden = !canControl() || !rolls.length;
  if (box.hidden) return;
  const items = rolls.map((r) => el("li", { class: "roll-line" },
    el("span", { class: "swatch", style: `background:${cssColour(r.player)}` }), ` ${nameOf(r.player)} `,
    r.dice.map((d) => dieFace(d.colour, d.pips, d.big)),
    r.placed ? el("span", { class: "placed" }, ` → ${r.placed.casino === "slot" ? "Slot" : `#${r.placed.casino}`}`) : null,
    el("button", { class: "secondary fix-roll", "data-event": r.event, onclick: () => {
      fixing = { event: r.event, dice: r.dice.map((d) => ({ ...d })), selected: null }; renderRollLog(); } }, t("action.fix"))));
  const editor = fixing ? el("div", { class: "fix-editor" },
    el("p", {}, t("fix.hint")),
    el("div", { class: "entered" }, fixing.dice.map((d, i) => el("button", {
      class: `entered-die${i === fixing.selected ? " selected" : ""}`, "data-index": i,
      onclick: () => { fixing.selected = i; renderRollLog(); } }, dieFace(d.colour, d.pips, d.big)))),
    fixing.selected === null ? null : el("div", { class: "chooser" }, [1, 2, 3, 4, 5, 6].map((p) =>
      el("button", { class: "pip-button", "data-pips": p, onclick: () => {
        fixing.dice[fixing.selected].pips = p; fixing.selected = null; renderRollLog(); } }, p))),
    el("div", { class: "row" },
      el("button", { class: "primary", id: "fix-save", onclick: async () => {
        const body = { event: fixing.event, dice: fixing.dice };
        fixing = null;
        try {
          const result = await api("POST", `/api/games/${GAME}/corrections`, body, GAME);
          if (result.dropped) toast(t("fix.dropped", { n: result.dropped }), false);
          render(result.state);
        } catch (err) { toast(err.message); renderRollLog(); }
      } }, t("action.record")),
      el("button", { class: "secondary", onclick: () => { fixing = null; renderRollLog(); } }, t("action.close")))) : null;
  box.replaceChildren(...[el("h2", {}, t("log.title")), el("ol", {}, items), editor].filter(Boolean));
}

// ------------------------------------------------------------------ deck and rounds
function renderDeck() {
  const box = document.getElementById("deck");
  box.replaceChildren(...[el("p", {}, t("deck.left", { n: state.deck.count, total: money(state.deck.total).replace(/\s?\$\s?/, "") })),
    el("div", { class: "deck-values" }, state.deck.by_value.map((v) =>
      el("span", { class: "deck-value" }, banknote(v.value), ` ×${v.count}`))),
    state.discarded.length ? el("p", {}, t("deck.discarded", { notes: state.discarded.map(money).join(", ") })) : null,
  ].filter(Boolean));
}

function casinoResult(c, index) {
  const slot = c.casino === "slot";
  const cancelled = new Set(c.cancelled);
  const lines = [];
  const tied = {};
  for (const tally of c.tallies.filter((x) => cancelled.has(x.colour))) {
    const key = slot ? `${tally.dice}/${tally.pips}/${tally.highest}` : `${tally.dice}`;
    (tied[key] = tied[key] || []).push(tally);
  }
  const seat = (colour) => { const i = state.players.findIndex((p) => p.colour === colour); return i < 0 ? 99 : i; };
  for (const group of Object.values(tied)) {
    group.sort((a, b) => seat(a.colour) - seat(b.colour));
    lines.push(el("li", { class: "cancelled" }, t(slot ? "result.cancel.slot" : "result.cancel",
      { colours: listOf(group.map((x) => nameOf(x.colour))), count: group[0].dice })));
  }
  for (const p of c.payouts) lines.push(el("li", { class: "paid" }, banknote(p.banknote), " → ",
    el("span", { class: "swatch", style: `background:${cssColour(p.colour)}` }),
    " ", nameOf(p.colour)));
  // where the neutral dice's winnings and the notes nobody won go: under the deck, or out of the game
  const neutralWins = c.payouts.filter((p) => p.colour === state.neutral).map((p) => p.banknote);
  const [back, gone] = [[], []];
  (state.neutral_winnings === "bottom" ? back : gone).push(...neutralWins);
  (state.unclaimed_rule === "bottom" ? back : gone).push(...c.unclaimed);
  if (!c.tallies.length) lines.push(el("li", {}, t("result.empty")));
  if (back.length) lines.push(el("li", { class: "under" }, t("result.under", { notes: listOf(back.map(money)), n: back.length })));
  if (gone.length) lines.push(el("li", { class: "under" }, t("result.discard", { notes: listOf(gone.map(money)), n: gone.length })));
  return el("article", { class: "casino-result", style: `animation-delay:${index * 0.35}s`, "data-casino": c.casino },
    el("header", {}, slot ? "Slot 777" : `Casino ${c.casino}`, " ", c.banknotes.map(banknote)),
    diceGroups(c.dice, cancelled), el("ul", {}, lines));
}

function roundResult(round) {
  return el("div", { class: "round-result" },
    el("h2", {}, t("result.title", { n: round.number })),
    el("div", { class: "casino-results" }, round.casinos.map(casinoResult)));
}

function renderRounds() {
  const box = document.getElementById("rounds");
  box.replaceChildren(...(state.rounds.length ? [...state.rounds].reverse().map((r) =>
    el("details", { class: "round-summary" }, el("summary", {}, t("result.title", { n: r.number })), roundResult(r)))
    : [el("p", {}, t("rounds.none"))]));
  document.getElementById("export-json").href = `/api/games/${GAME}/export.json`;
  document.getElementById("export-csv").href = `/api/games/${GAME}/export.csv`;
}

function maybeShowRoundEnd() {
  if (shownRounds === null) { shownRounds = state.rounds.length; return; }
  if (state.rounds.length > shownRounds) {
    shownRounds = state.rounds.length;
    const round = state.rounds[state.rounds.length - 1];
    review = null;
    document.getElementById("round-end-body").replaceChildren(roundResult(round),
      el("h3", {}, t("result.standings")), standingsList(),
      el("section", { id: "round-review", "data-round": round.number }));
    renderRoundReview(true);
    const dialog = document.getElementById("round-end");
    if (!dialog.open) dialog.showModal();
    // the summary reads from casino 1; Continue stays in view below it, whatever its length
    document.getElementById("round-end-body").scrollTop = 0;
  } else if (state.rounds.length < shownRounds) {
    shownRounds = state.rounds.length;  // an undo went back into the previous round
  }
}

// The round's review in its dialog: asked when the round ends, asked again when the server says the
// review under way has finished (``state.review`` goes back to null), and every few seconds while
// the dialog waits for it (a review that ends between two states is never seen running).
let reviewAsked = false;
let reviewRunning = false;
const REVIEW_ASK_AGAIN_MS = 3000;

function renderRoundReview(ask = false) {
  const box = document.getElementById("round-review");
  const running = Boolean(state.review);
  const finished = reviewRunning && !running;
  reviewRunning = running;
  if (!box || !document.getElementById("round-end").open && !ask) return;
  const number = Number(box.dataset.round);
  const covers = review && review.review && review.review.rounds.some((r) => r.round === number);
  if (!covers && !reviewAsked && (ask || finished)) {
    reviewAsked = true;
    api("GET", `/api/games/${GAME}/review`).then((answer) => { review = answer; })
      .catch(() => { review = null; })
      .finally(() => {
        reviewAsked = false;
        renderRoundReview();
        if (review && review.current) return;
        setTimeout(() => { if (document.getElementById("round-end").open) renderRoundReview(true); }, REVIEW_ASK_AGAIN_MS);
      });
  }
  box.replaceChildren(el("h3", {}, t("review.round", { n: number })),
    covers ? roundReview(review.review, number, nameOf) : reviewProgress(state.review || (review && review.progress)));
}

// ------------------------------------------------------------------ sharing
function showShare() {
  const readonly = `${JOIN_BASE}/games/${GAME}`;
  const items = [el("h2", {}, t("share.readonly")), el("img", { src: `/qr.svg?data=${encodeURIComponent(readonly)}`, alt: readonly, class: "qr" }),
    el("p", {}, el("code", {}, readonly))];
  if (canControl()) {
    const control = `${readonly}#token=${tokenFor(GAME)}`;
    items.push(el("details", {}, el("summary", {}, t("share.control")),
      el("img", { src: `/qr.svg?data=${encodeURIComponent(control)}`, alt: "control link", class: "qr" })));
  }
  document.getElementById("share-body").replaceChildren(...items);
  document.getElementById("share-dialog").showModal();
}

// ------------------------------------------------------------------ wiring
function render(next) {
  state = next;
  renderStatus(); renderPlayers(); renderCasinos(); renderAction(); renderDeck(); renderRounds();
  renderCameraCorrection();
  renderRollLog();
  maybeShowRoundEnd();
  renderRoundReview();
  wantAdvice();
}

// Live updates come down a stream. A server whose live views are all taken refuses the stream
// (503): the page then asks for the state every second and tries the stream again every 5 s.
const POLL_MS = 1000;
const RECONNECT_MS = 5000;
let polling = null;

function connect() {
  const dot = document.getElementById("live-dot");
  const source = new EventSource(`/api/games/${GAME}/events`);
  source.addEventListener("open", stopPolling);
  source.addEventListener("state", (event) => { dot.className = "live-dot on"; render(JSON.parse(event.data)); });
  source.addEventListener("error", () => {
    dot.className = "live-dot off";
    if (source.readyState !== EventSource.CLOSED) return; // a dropped stream reconnects by itself
    startPolling();
    setTimeout(connect, RECONNECT_MS);
  });
}

function startPolling() {
  if (polling) return;
  polling = setInterval(async () => {
    try {
      const next = await api("GET", `/api/games/${GAME}`);
      if (JSON.stringify(next) !== JSON.stringify(state)) render(next);
    } catch (err) { /* the live dot already says the page is behind */ }
  }, POLL_MS);
}

function stopPolling() {
  if (polling) { clearInterval(polling); polling = null; }
}

document.addEventListener("DOMContentLoaded", async () => {
  takeTokenFromLink();
  document.getElementById("undo").addEventListener("click", () => command("undo"));
  document.getElementById("share").addEventListener("click", showShare);
  document.getElementById("hints").addEventListener("change", (event) => command("hints", { on: event.target.checked }));
  document.getElementById("chances-button").addEventListener("click", async (event) => {
    event.target.disabled = true;
    try {
      chances = await api("GET", `/api/games/${GAME}/chances`);
      renderPlayers();
    } catch (err) { toast(err.message); }
    event.target.disabled = false;
  });
  try { render(await api("GET", `/api/games/${GAME}`)); } catch (err) { toast(err.message); }
  connect();
});
document.addEventListener("languagechange", () => state && render(state));
