// Strings in the rule texts' three languages. t(key, {name: value}) fills {name} placeholders.
const STRINGS = {
  en: {
    "app.name": "Vegas Table Companion", "nav.new": "New game", "nav.history": "History",
    "new.title": "New game", "new.players": "Players", "new.add": "Add player", "new.remove": "Remove player",
    "new.edition": "Edition", "new.variants": "Variants", "new.start": "Start game",
    "new.resume": "Games on this table", "new.name": "Name", "new.colour": "Colour", "new.none": "No games yet.",
    "edition.classic": "Classic (4 rounds, $50,000 per casino)",
    "edition.biggy": "Biggy (3 rounds, 2 notes per casino, Biggy die)",
    "variant.neutral": "Neutral dice (2–4 players)", "variant.slot": "Slot casino (Biggy edition)",
    "variant.unclaimed": "Notes nobody wins", "unclaimed.bottom": "go under the deck", "unclaimed.discard": "leave the game",
    "round": "Round {n} of {total}", "game.over": "Game over", "turn": "{name}'s turn",
    "turn.neutral": "{name} rolls the leftover neutral dice",
    "action.undo": "Undo", "action.share": "Join link", "action.continue": "Continue", "action.close": "Close",
    "action.virtual": "Roll virtual dice", "action.record": "Record roll", "action.clear": "Clear",
    "action.place": "Place the {value}s", "action.slot": "on the slot",
    "note.readonly": "Viewing only: this device does not hold the game's token.",
    "roll.enter": "Enter the roll", "roll.entered": "{n} of {total} dice entered", "roll.tap": "Tap a value to add a die; tap a die to remove it.",
    "roll.choose": "Choose a value", "roll.neutral": "neutral", "roll.biggy": "Biggy",
    "dice.held": "{n} dice", "money": "${amount}", "banknotes": "{n} notes", "banknotes.one": "1 note",
    "deck.title": "Deck", "deck.left": "{n} notes left (${total})", "deck.discarded": "Out of the game: {notes}",
    "rounds.title": "Rounds", "rounds.none": "No round finished yet.",
    "export.json": "Export JSON", "export.csv": "Export CSV",
    "result.title": "End of round {n}", "result.cancel": "{colours} cancel: {count} each",
    "result.cancel.slot": "{colours} cancel: same dice, pips and highest die",
    "result.paid": "{who} takes {note}", "result.under": "{notes} go under the deck", "result.discard": "{notes} leave the game",
    "result.empty": "No dice here", "result.standings": "Standings", "result.winners": "Winner: {names}",
    "share.readonly": "Watch on another tablet or phone (view only)", "share.control": "Control from another tablet (includes the token)",
    "error.network": "The server cannot be reached; nothing was lost. Retrying…",
    "camera.ok": "Camera: watching", "camera.ended": "Recording ended", "camera.lost": "Camera: no picture — retrying; enter rolls by hand",
    "camera.blind": "Camera: the picture is black or dazzled — check the lens and the light; enter rolls by hand",
    "camera.fix": "The camera read a roll that does not fit. Tap each wrong die to fix it, then record.",
    "history.title": "History", "history.round": "Round {n}", "history.open": "Open table",
    "standings.place": "{place}. {name}",
    "log.title": "This round's rolls", "action.fix": "Fix", "fix.hint": "Tap a die, then its right value.",
    "fix.dropped": "{n} later moves no longer fitted and were taken back.",
  },
  es: {
    "app.name": "Compañero de mesa Las Vegas", "nav.new": "Nueva partida", "nav.history": "Historial",
    "new.title": "Nueva partida", "new.players": "Jugadores", "new.add": "Añadir jugador", "new.remove": "Quitar jugador",
    "new.edition": "Edición", "new.variants": "Variantes", "new.start": "Empezar",
    "new.resume": "Partidas de esta mesa", "new.name": "Nombre", "new.colour": "Color", "new.none": "Aún no hay partidas.",
    "edition.classic": "Clásica (4 rondas, 50.000 $ por casino)",
    "edition.biggy": "Biggy (3 rondas, 2 billetes por casino, dado Biggy)",
    "variant.neutral": "Dados neutrales (2–4 jugadores)", "variant.slot": "Casino tragaperras (edición Biggy)",
    "variant.unclaimed": "Billetes que nadie gana", "unclaimed.bottom": "van bajo el mazo", "unclaimed.discard": "salen del juego",
    "round": "Ronda {n} de {total}", "game.over": "Fin de la partida", "turn": "Turno de {name}",
    "turn.neutral": "{name} tira los dados neutrales sobrantes",
    "action.undo": "Deshacer", "action.share": "Enlace", "action.continue": "Continuar", "action.close": "Cerrar",
    "action.virtual": "Tirar dados virtuales", "action.record": "Anotar tirada", "action.clear": "Borrar",
    "action.place": "Colocar los {value}", "action.slot": "en la tragaperras",
    "note.readonly": "Solo lectura: este dispositivo no tiene la clave de la partida.",
    "roll.enter": "Introducir la tirada", "roll.entered": "{n} de {total} dados", "roll.tap": "Toca un valor para añadir un dado; toca un dado para quitarlo.",
    "roll.choose": "Elige un valor", "roll.neutral": "neutral", "roll.biggy": "Biggy",
    "dice.held": "{n} dados", "money": "{amount} $", "banknotes": "{n} billetes", "banknotes.one": "1 billete",
    "deck.title": "Mazo", "deck.left": "Quedan {n} billetes ({total} $)", "deck.discarded": "Fuera del juego: {notes}",
    "rounds.title": "Rondas", "rounds.none": "Ninguna ronda terminada.",
    "export.json": "Exportar JSON", "export.csv": "Exportar CSV",
    "result.title": "Fin de la ronda {n}", "result.cancel": "{colours} se anulan: {count} cada uno",
    "result.cancel.slot": "{colours} se anulan: mismos dados, puntos y dado mayor",
    "result.paid": "{who} gana {note}", "result.under": "{notes} van bajo el mazo", "result.discard": "{notes} salen del juego",
    "result.empty": "Sin dados", "result.standings": "Clasificación", "result.winners": "Gana: {names}",
    "share.readonly": "Ver en otra tableta o móvil (solo lectura)", "share.control": "Controlar desde otra tableta (incluye la clave)",
    "error.network": "No se puede contactar con el servidor; no se ha perdido nada. Reintentando…",
    "camera.ok": "Cámara: mirando", "camera.ended": "Grabación terminada", "camera.lost": "Cámara: sin imagen — reintentando; anota a mano",
    "camera.blind": "Cámara: la imagen está negra o deslumbrada — revisa la lente y la luz; anota a mano",
    "camera.fix": "La cámara leyó una tirada que no encaja. Toca cada dado erróneo para corregirlo.",
    "history.title": "Historial", "history.round": "Ronda {n}", "history.open": "Abrir mesa",
    "standings.place": "{place}. {name}",
    "log.title": "Tiradas de esta ronda", "action.fix": "Corregir", "fix.hint": "Toca un dado y luego su valor correcto.",
    "fix.dropped": "{n} jugadas posteriores ya no encajaban y se han deshecho.",
  },
  fr: {
    "app.name": "Compagnon de table Las Vegas", "nav.new": "Nouvelle partie", "nav.history": "Historique",
    "new.title": "Nouvelle partie", "new.players": "Joueurs", "new.add": "Ajouter un joueur", "new.remove": "Retirer un joueur",
    "new.edition": "Édition", "new.variants": "Variantes", "new.start": "Commencer",
    "new.resume": "Parties de cette table", "new.name": "Nom", "new.colour": "Couleur", "new.none": "Pas encore de partie.",
    "edition.classic": "Classique (4 manches, 50 000 $ par casino)",
    "edition.biggy": "Biggy (3 manches, 2 billets par casino, dé Biggy)",
    "variant.neutral": "Dés neutres (2 à 4 joueurs)", "variant.slot": "Casino machine à sous (édition Biggy)",
    "variant.unclaimed": "Billets que personne ne gagne", "unclaimed.bottom": "sous la pioche", "unclaimed.discard": "hors du jeu",
    "round": "Manche {n} sur {total}", "game.over": "Partie terminée", "turn": "À {name} de jouer",
    "turn.neutral": "{name} lance les dés neutres restants",
    "action.undo": "Annuler", "action.share": "Lien", "action.continue": "Continuer", "action.close": "Fermer",
    "action.virtual": "Lancer des dés virtuels", "action.record": "Noter le lancer", "action.clear": "Effacer",
    "action.place": "Poser les {value}", "action.slot": "sur la machine à sous",
    "note.readonly": "Lecture seule : cet appareil n'a pas la clé de la partie.",
    "roll.enter": "Saisir le lancer", "roll.entered": "{n} dés sur {total}", "roll.tap": "Touchez une valeur pour ajouter un dé ; touchez un dé pour l'enlever.",
    "roll.choose": "Choisissez une valeur", "roll.neutral": "neutre", "roll.biggy": "Biggy",
    "dice.held": "{n} dés", "money": "{amount} $", "banknotes": "{n} billets", "banknotes.one": "1 billet",
    "deck.title": "Pioche", "deck.left": "{n} billets restants ({total} $)", "deck.discarded": "Hors du jeu : {notes}",
    "rounds.title": "Manches", "rounds.none": "Aucune manche terminée.",
    "export.json": "Exporter JSON", "export.csv": "Exporter CSV",
    "result.title": "Fin de la manche {n}", "result.cancel": "{colours} s'annulent : {count} chacun",
    "result.cancel.slot": "{colours} s'annulent : mêmes dés, points et plus haut dé",
    "result.paid": "{who} prend {note}", "result.under": "{notes} vont sous la pioche", "result.discard": "{notes} sortent du jeu",
    "result.empty": "Aucun dé", "result.standings": "Classement", "result.winners": "Gagnant : {names}",
    "share.readonly": "Suivre sur une autre tablette ou un téléphone (lecture seule)", "share.control": "Piloter depuis une autre tablette (avec la clé)",
    "error.network": "Le serveur ne répond pas ; rien n'est perdu. Nouvel essai…",
    "camera.ok": "Caméra : en veille", "camera.ended": "Enregistrement terminé", "camera.lost": "Caméra : pas d'image — nouvel essai ; saisissez à la main",
    "camera.blind": "Caméra : image noire ou éblouie — vérifiez l'objectif et la lumière ; saisissez à la main",
    "camera.fix": "La caméra a lu un lancer qui ne convient pas. Touchez chaque dé faux pour le corriger.",
    "history.title": "Historique", "history.round": "Manche {n}", "history.open": "Ouvrir la table",
    "standings.place": "{place}. {name}",
    "log.title": "Lancers de cette manche", "action.fix": "Corriger", "fix.hint": "Touchez un dé, puis sa bonne valeur.",
    "fix.dropped": "{n} coups suivants ne convenaient plus et ont été annulés.",
  },
};

function currentLanguage() {
  const saved = localStorage.getItem("vegas-language");
  if (saved && STRINGS[saved]) return saved;
  const browser = (navigator.language || "en").slice(0, 2);
  return STRINGS[browser] ? browser : "en";
}

function t(key, params = {}) {
  if (params.n === 1 && (STRINGS.en[`${key}.one`])) key = `${key}.one`;
  const table = STRINGS[currentLanguage()] || STRINGS.en;
  const text = table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : `{${name}}`));
}

function translatePage() {
  document.documentElement.lang = currentLanguage();
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
}
