// The review of a game (GET /api/games/<id>/review): each move that had a choice against the best
// one, the chance to win and money it gave up in expectation, each player's chance to win after every round. Shared by
// the round-end dialog, the review page and the hints beside the value buttons.

// "5s on casino 5", "5s on the slot": a choice as the review names it ("value:casino")
function choiceName(choice) {
  const [value, casino] = choice.split(":");
  return t(casino === "slot" ? "review.on.slot" : "review.on.casino", { value });
}

// a standard error as money to two figures (the money beside it is rounded to what it supports):
// "$1,400"
function errorText(stderr) {
  return money(Number(Number(stderr).toPrecision(2)));
}

// money with its standard error: "≈ $96,000 ± $1,400"
function worthText(amount, stderr) {
  return stderr ? t("review.worth", { money: money(amount), error: errorText(stderr) }) : money(amount);
}

function percent(chance) {
  return new Intl.NumberFormat(currentLanguage(), { style: "percent" }).format(chance);
}

function reviewProgress(progress) {
  const done = progress ? progress.done : 0;
  const total = progress && progress.total ? progress.total : 0;
  return el("div", { class: "review-progress" },
    el("progress", { max: total || 1, value: total ? done : 0 }),
    el("span", {}, total ? t("review.progress", { done, total }) : t("review.waiting")));
}

// one move against the best choice; ``withRound`` names its round (a list of moves from several)
function moveLine(move, nameOf, withRound = false) {
  const rolled = move.rolled.join(" · ");
  const who = el("span", { class: "swatch", style: `background:${cssColour(move.player)}` });
  const same = move.chosen !== move.best && move.about_the_same;
  const best = move.chosen === move.best || same || (!move.given_up && !move.chance_given_up);
  const lost = move.chance_given_up
    ? t("review.lost.chance", { chance: percent(move.chance_given_up), money: money(move.given_up) })
    : t("review.lost", { money: worthText(move.given_up, move.stderr) });
  return el("li", { class: `review-move${best ? " best" : ""}`, "data-event": move.event },
    withRound ? el("span", { class: "move-round" }, `${t("history.round", { n: move.round })}: `) : null,
    who, " ", t("review.rolled", { name: nameOf(move.player), values: rolled }), " ",
    el("span", { class: "chosen" }, t("review.chose", { choice: choiceName(move.chosen), worth: money(move.chosen_money) })),
    best ? el("span", { class: "verdict best" }, ` — ${t(same ? "review.same" : "review.best.it")}`)
      : el("span", { class: "verdict" }, ` — ${t("review.best", { choice: choiceName(move.best), worth: money(move.best_money) })}; `,
        el("strong", {}, lost)));
}

function chancesList(round, nameOf) {
  const colours = Object.keys(round.chances).sort((a, b) => round.chances[b] - round.chances[a]);
  return el("ul", { class: "chances" }, colours.map((c) => el("li", {},
    el("span", { class: "swatch", style: `background:${cssColour(c)}` }), ` ${nameOf(c)} `,
    el("span", { class: "chance-bar", style: `--chance:${Math.round(round.chances[c] * 100)}%` }),
    ` ${percent(round.chances[c])}`)));
}

// one round of the review: its moves (the costliest first) and the chances to win after it
function roundReview(review, number, nameOf) {
  const moves = review.moves.filter((m) => m.round === number)
    .sort((a, b) => (b.chance_given_up || 0) - (a.chance_given_up || 0) || b.given_up - a.given_up);
  const chances = review.rounds.find((r) => r.round === number);
  return el("div", { class: "round-review" },
    moves.length ? el("ol", { class: "review-moves" }, moves.map((m) => moveLine(m, nameOf))) : el("p", {}, t("review.none")),
    chances ? [el("h4", {}, t("review.chances", { n: number })), chancesList(chances, nameOf)] : null);
}

// the whole game: the biggest swings first, then each round
function gameReview(review, nameOf) {
  const biggest = review.biggest.map((event) => review.moves.find((m) => m.event === event)).filter(Boolean);
  const rounds = [...new Set(review.rounds.map((r) => r.round))];
  return el("div", { class: "game-review" },
    el("h3", {}, t("review.biggest")),
    biggest.length ? el("ol", { class: "review-moves" }, biggest.map((m) => moveLine(m, nameOf, true))) : el("p", {}, t("review.none")),
    rounds.map((n) => el("details", { class: "round-summary", open: rounds.length === 1 },
      el("summary", {}, t("history.round", { n })), roundReview(review, n, nameOf))),
    el("p", { class: "hint" }, t("review.note", { n: review.rollouts })));
}
