// Every round of every game, reviewable, with export links.
function roundSummary(round, names) {
  return el("details", { class: "round-summary" },
    el("summary", {}, t("history.round", { n: round.number })),
    el("ul", {}, round.casinos.map((c) => el("li", {},
      el("strong", {}, c.casino === "slot" ? "Slot" : `#${c.casino}`), " ",
      c.payouts.map((p) => t("result.paid", { who: names[p.colour] || colourName(p.colour), note: money(p.banknote) })).join(" · ")
        || t("result.empty"),
      c.cancelled.length ? ` — ✕ ${listOf(c.cancelled.map((colour) => names[colour] || colourName(colour)))}` : ""))));
}

// the variants a game was played with, in words
function variants(game) {
  return [game.neutral && t("tag.neutral", { colour: colourName(game.neutral) }), game.slot && t("tag.slot"),
    game.unclaimed_rule === "discard" && t("tag.discard")].filter(Boolean);
}

function damagedGame(game) {
  return el("article", { class: "history-game damaged" },
    el("h2", {}, game.title, el("small", {}, ` ${game.created.replace("T", " ").slice(0, 16)}`)),
    el("p", { class: "game-status damaged-mark" }, t("list.damaged", { event: game.damaged.event })),
    el("p", {}, el("a", { href: `/games/${game.id}` }, t("history.open")), " · ",
      el("a", { href: `/api/games/${game.id}/export.json` }, t("damaged.export"))));
}

async function showHistory() {
  const box = document.getElementById("history");
  try {
    const { games } = await api("GET", "/api/games");
    // a game whose events no longer replay is listed apart; its page says why
    // (one found damaged only now, as its state is asked for, is listed so too)
    const asked = await Promise.allSettled(games.map((g) => (g.damaged ? g : api("GET", `/api/games/${g.id}`))));
    const details = asked.map((answer, i) => answer.status === "fulfilled" ? answer.value
      : { ...games[i], damaged: { event: answer.reason.data?.values?.event ?? "?" } });
    box.replaceChildren(...details.map((game) => {
      if (game.damaged) return damagedGame(game);
      const names = Object.fromEntries(game.players.map((p) => [p.colour, p.name]));
      return el("article", { class: "history-game" },
        el("h2", {}, game.players.map((p) => p.name).join(" · "),
          el("small", {}, ` ${game.created.replace("T", " ").slice(0, 16)} · ${[t(`edition.short.${game.edition}`), ...variants(game)].join(" · ")}`)),
        el("p", { class: "game-status" }, game.over
          ? winnersText(game)
          : t("history.playing", { n: game.round, total: game.rounds_total })),
        el("ol", { class: "standings" }, game.standings.map((s) =>
          el("li", {}, el("span", { class: "swatch", style: `background:${cssColour(s.colour)}` }),
            ` ${names[s.colour]} ${money(s.money)} (${t("banknotes", { n: s.banknotes })})`))),
        game.rounds.length ? game.rounds.map((r) => roundSummary(r, names)) : el("p", {}, t("rounds.none")),
        el("p", {}, el("a", { href: `/games/${game.id}` }, t("history.open")), " · ",
          game.rounds.length ? [el("a", { href: `/games/${game.id}/review`, class: "review-link" }, t("review.open")), " · "] : null,
          el("a", { href: `/api/games/${game.id}/export.json` }, t("export.json")), " · ",
          el("a", { href: `/api/games/${game.id}/export.csv` }, t("export.csv"))),
        el("p", {}, playAgainLink(game.id, "secondary")));
    }));
    if (!games.length) box.replaceChildren(el("p", {}, t("new.none")));
  } catch (err) {
    box.replaceChildren(el("p", { class: "error" }, err.message));
  }
}

document.addEventListener("DOMContentLoaded", showHistory);
document.addEventListener("languagechange", showHistory);
