// The table setup page: the camera's picture, its areas drawn by dragging, colours learned from
// the dice on the table. Changes need the setup token from the link `companion serve` printed.
const SETUP_TOKEN_KEY = "vegas-setup-token";
let setup = null;           // the server's state: frame size, areas, colours, file
let areas = {};             // the areas as drawn here, in pixels of the camera's picture
let chosen = "tray";
let drag = null;

function setupToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    localStorage.setItem(SETUP_TOKEN_KEY, hash.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(SETUP_TOKEN_KEY);
}

async function setupApi(method, path, body) {
  return request(method, path, body, setupToken(), t("setup.token"));
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
}

function renderAreas() {
  const svg = document.getElementById("setup-areas");
  if (!setup || !setup.frame) return;
  const [w, h] = setup.frame;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const ns = "http://www.w3.org/2000/svg";
  const shapes = [];
  for (const [name, rect] of Object.entries(areas)) {
    if (!rect) continue;
    const [x, y, rw, rh] = rect;
    const box = document.createElementNS(ns, "rect");
    Object.entries({ x, y, width: rw, height: rh, class: `area ${name === chosen ? "chosen" : ""} ${name}` })
      .forEach(([k, v]) => box.setAttribute(k, v));
    const label = document.createElementNS(ns, "text");
    Object.entries({ x: x + 6, y: y + Math.max(20, h / 18), class: "area-label" }).forEach(([k, v]) => label.setAttribute(k, v));
    label.setAttribute("font-size", Math.max(18, h / 20));
    label.textContent = areaLabel(name);
    shapes.push(box, label);
  }
  svg.replaceChildren(...shapes);
}

function refreshPicture() {
  if (drag) return;
  document.getElementById("setup-frame").src = `/api/setup/frame.jpg?t=${Date.now()}`;
}

async function refreshLearned() {
  // a game started (or a colour learned elsewhere) since the page opened changes what is left to learn
  try {
    const now = await setupApi("GET", "/api/setup");
    setup = { ...setup, colours: now.colours, to_learn: now.to_learn };
    renderStatus();
  } catch (err) {
    // the camera's picture says when the camera is gone; the list stays as it was
  }
}

async function load() {
  try {
    setup = await setupApi("GET", "/api/setup");
  } catch (err) {
    showProblem(err.message);
    document.getElementById("setup-body").hidden = true;
    return;
  }
  showProblem(setup.frame ? setup.problem || "" : t("setup.waiting"));
  areas = { table: setup.table, ...setup.zones };
  document.getElementById("setup-body").hidden = false;
  refreshPicture();
  renderStatus();
  renderAreas();
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

async function saveAreas() {
  try {
    setup = await setupApi("POST", "/api/setup/areas", areas);
    areas = { table: setup.table, ...setup.zones };
    toast(t("setup.saved", { file: setup.file }), false);
  } catch (err) {
    toast(err.message);
  }
  renderStatus();
  renderAreas();
}

async function learnColour() {
  const colour = document.getElementById("setup-colour").value;
  const button = document.getElementById("setup-learn");
  button.disabled = true;
  try {
    const answer = await setupApi("POST", "/api/setup/colours", { colour });
    setup = answer;
    const { learned } = answer;
    const log = document.getElementById("setup-log");
    log.prepend(el("li", { class: learned.warnings.length ? "warning" : "" },
      t("setup.learned", { colour: learned.colour, n: learned.dice }),
      learned.note ? el("div", { class: "hint" }, learned.note) : null,
      learned.warnings.map((w) => el("div", { class: "error" }, w))));
    toast(t("setup.learned", { colour: learned.colour, n: learned.dice }), false);
  } catch (err) {
    toast(err.message);
  } finally {
    button.disabled = false;
  }
  renderStatus();
}

document.addEventListener("DOMContentLoaded", () => {
  setupToken();
  document.getElementById("setup-colour").replaceChildren(...COLOUR_CHOICES.map((c) => el("option", { value: c }, c)));
  document.querySelectorAll(".area-choice").forEach((button) => button.addEventListener("click", () => {
    chosen = button.dataset.area;
    renderStatus();
    renderAreas();
  }));
  const view = document.getElementById("setup-view");
  view.addEventListener("pointerdown", startDrag);
  view.addEventListener("pointermove", moveDrag);
  view.addEventListener("pointerup", endDrag);
  view.addEventListener("pointercancel", endDrag);
  document.getElementById("setup-frame").addEventListener("load", renderAreas);
  document.getElementById("setup-refresh").addEventListener("click", refreshPicture);
  document.getElementById("setup-clear").addEventListener("click", () => {
    delete areas[chosen];
    renderStatus();
    renderAreas();
  });
  document.getElementById("setup-save").addEventListener("click", saveAreas);
  document.getElementById("setup-learn").addEventListener("click", learnColour);
  document.addEventListener("languagechange", () => { renderStatus(); renderAreas(); });
  load().then(() => { if (setup) setInterval(() => { refreshPicture(); refreshLearned(); }, 3000); });  // no camera: nothing to refresh
});
