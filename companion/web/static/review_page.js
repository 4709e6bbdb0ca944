// The review page of one game: a progress bar while the review is made (asked every second), then
// the biggest swings, each round's moves and each player's chance to win after every round.
const REVIEW_GAME = document.getElementById("review-page").dataset.game;
const REVIEW_POLL_MS = 1000;
let reviewGame = null;
let reviewAnswer = null;

function reviewNameOf(colour) {
  const player = reviewGame && reviewGame.players.find((p) => p.colour === colour);
  return player ? player.name : colourName(colour);
}

function showReview() {
  const box = document.getElementById("review");
  if (!reviewGame || !reviewAnswer) return;
  document.getElementById("review-players").replaceChildren(
    reviewGame.over ? winnersText(reviewGame) : t("history.playing", { n: reviewGame.round, total: reviewGame.rounds_total }));
  const made = reviewAnswer.review;
  const parts = [];
  if (!reviewAnswer.current) parts.push(reviewProgress(reviewAnswer.progress));
  if (made) parts.push(gameReview(made, reviewNameOf));
  else if (reviewAnswer.current) parts.push(el("p", {}, t("rounds.none")));
  box.replaceChildren(...parts);
}

async function loadReview() {
  try {
    reviewGame = await api("GET", `/api/games/${REVIEW_GAME}`);
    reviewAnswer = await api("GET", `/api/games/${REVIEW_GAME}/review`);
    showReview();
    if (!reviewAnswer.current) setTimeout(loadReview, REVIEW_POLL_MS);
  } catch (err) {
    document.getElementById("review").replaceChildren(el("p", { class: "error" }, err.message));
    setTimeout(loadReview, REVIEW_POLL_MS * 5);
  }
}

document.addEventListener("DOMContentLoaded", loadReview);
document.addEventListener("languagechange", showReview);
