// A seated visitor's board (issue 51, 2): buttons laid over their seat's picture where the
// renderer draws each cell, and their legal moves as the service groups them (by the cell or
// the piece in hand they start from). No rule lives here: a click lights the targets the
// service listed, a target with several moves asks which, and the move's notation is sent
// (POST /g/<token>/move with the session's CSRF token), played as /move plays it. Loaded as a
// file (the CSP allows no inline script); no framework.
"use strict";
(function () {
  const game = document.getElementById("game");
  const play = document.getElementById("play");
  if (!game || !play) return;
  const token = game.dataset.token;
  const lang = game.dataset.lang;
  const board = document.getElementById("board");
  const cellsBox = document.getElementById("cells");
  const hand = document.getElementById("hand");
  const which = document.getElementById("which");
  const whichMoves = document.getElementById("which-moves");
  const status = document.getElementById("play-status");
  const said = document.getElementById("play-said");
  const otherForm = document.getElementById("other-form");
  const otherMoves = document.getElementById("other-moves");
  const words = play.dataset;
  let seat = null; // the board as the service last gave it
  let picked = null; // the origin key picked
  let picks = {}; // a setup being arranged: cell -> the index of the piece put there
  let sending = false;
  // inside the Discord Activity (activity.js): the session is a bearer token, and the seat's
  // picture is fetched with it (an <img> cannot send it) and shown from memory
  const activity = window.banmenActivity;
  const auth = activity
    ? { Authorization: "Bearer " + activity.session, "X-Banmen-Pass": activity.pass }
    : {};
  let shownPicture = null;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  }

  function say(text) {
    said.textContent = text;
  }

  function load() {
    return fetch("/g/" + token + "/seat.json?lang=" + lang, {
      credentials: "same-origin",
      headers: auth,
    })
      .then((r) => r.json().then((data) => (r.ok ? data : Promise.reject(data))))
      .then((data) => picture(data.picture).then((shown) => [data, shown]))
      .then(([data, shown]) => {
        seat = data;
        picked = null;
        game.dataset.seatPicture = shown;
        game.dataset.seatWords = data.described;
        for (const form of document.querySelectorAll("form.move-form")) {
          form.elements.ply.value = String(data.ply);
        }
        build();
        game.dispatchEvent(new CustomEvent("banmen:seat"));
      })
      .catch((data) => say(data && data.said ? data.said : words.tFailed));
  }

  function picture(address) {
    if (!activity) return Promise.resolve(address);
    return fetch(address, { headers: auth })
      .then((r) => (r.ok ? r.blob() : Promise.reject(r.status)))
      .then((blob) => {
        if (shownPicture) URL.revokeObjectURL(shownPicture);
        shownPicture = URL.createObjectURL(blob);
        return shownPicture;
      });
  }

  function statusText() {
    if (!seat.live) return words.tOver;
    if (seat.acting && seat.secret) return words.tSecret;
    return seat.acting ? words.tYourTurn : words.tWaiting;
  }

  function origins() {
    return seat.origins.filter((o) => o.key !== "");
  }

  function build() {
    status.textContent = statusText();
    which.hidden = true;
    // a keyboard user on the board stays on their cell when the board is built again
    const focused = cellsBox.contains(document.activeElement) ? document.activeElement : null;
    cellsBox.textContent = "";
    let first = true;
    for (const cell of seat.cells) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.cell = String(cell.cell);
      b.dataset.words = cell.words;
      b.setAttribute("aria-label", cell.words);
      const [x0, y0, x1, y1] = cell.box;
      b.style.left = (100 * x0) / seat.width + "%";
      b.style.top = (100 * y0) / seat.height + "%";
      b.style.width = (100 * (x1 - x0)) / seat.width + "%";
      b.style.height = (100 * (y1 - y0)) / seat.height + "%";
      b.tabIndex = first ? 0 : -1; // one stop for the board: arrows move within it
      first = false;
      if (seat.origins.some((o) => o.cell === cell.cell)) b.classList.add("origin");
      cellsBox.appendChild(b);
    }
    hand.textContent = "";
    for (const o of origins()) {
      if (o.cell !== null) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.origin = o.key;
      b.textContent = o.label;
      b.setAttribute("aria-pressed", "false");
      hand.appendChild(b);
    }
    hand.hidden = hand.childElementCount === 0;
    otherMoves.textContent = "";
    for (const c of seat.choices) {
      if (c.from !== "") continue;
      const option = document.createElement("option");
      option.value = c.move;
      option.textContent = c.shown;
      otherMoves.appendChild(option);
    }
    otherForm.hidden = otherMoves.childElementCount === 0;
    if (focused) focusCell(Number(focused.dataset.cell));
    if (arranging()) {
      // what was given so far stays while a setup still fits it (another seat's setup came in)
      if (fitting(null).length === 0) picks = {};
      return arrange(false);
    }
    picks = {};
    const only = origins();
    if (only.length === 1) pick(only[0].key, false); // one way to start: its targets at once
  }

  // A secret setup by clicks: each cell it fills is given a piece in turn, among the setups
  // that still fit what was given; the one setup left is played on confirmation.
  function arranging() {
    return seat.acting && seat.choices.some((c) => c.placed);
  }

  function fitting(except) {
    return seat.choices.filter(
      (c) =>
        c.placed &&
        Object.entries(picks).every(
          ([cell, p]) => Number(cell) === except || c.placed.some(([x, q]) => x === Number(cell) && q === p)
        )
    );
  }

  function arrange(aloud) {
    const fit = fitting(null);
    const open = new Set(fit.flatMap((c) => c.placed.map(([cell]) => cell)));
    for (const b of cellsBox.children) {
      const cell = Number(b.dataset.cell);
      const given = picks[cell];
      b.classList.toggle("target", open.has(cell));
      if (given === undefined) delete b.dataset.pick;
      else b.dataset.pick = seat.pieces[given];
      const said = given === undefined ? b.dataset.words : b.dataset.words + " — " + seat.pieces[given];
      b.setAttribute("aria-label", open.has(cell) ? fill(words.tTarget, { cell: said }) : said);
    }
    if (fit.length === 1) {
      ask(fit, null);
      if (aloud) say(fit[0].shown);
    }
  }

  function place(b) {
    const cell = Number(b.dataset.cell);
    const options = new Map();
    for (const c of fitting(cell)) {
      for (const [x, p] of c.placed) if (x === cell) options.set(p, c);
    }
    if (options.size === 0) return;
    whichLabel.textContent = words.tWhichPiece;
    whichMoves.textContent = "";
    for (const p of [...options.keys()].sort((a, b) => a - b)) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = seat.pieces[p];
      button.addEventListener("click", () => {
        picks[cell] = p;
        which.hidden = true;
        arrange(true);
        if (which.hidden) b.focus();
      });
      whichMoves.appendChild(button);
    }
    which.hidden = false;
    which.dataset.back = String(cell);
    whichMoves.firstChild.focus();
  }

  function targetsOf(key) {
    return seat.choices.filter((c) => c.from === key && c.to !== null);
  }

  function pick(key, aloud) {
    picked = key;
    which.hidden = true;
    const targets = new Set(targetsOf(key).map((c) => c.to));
    for (const b of cellsBox.children) {
      const cell = Number(b.dataset.cell);
      const isOrigin = key === "c" + cell;
      b.setAttribute("aria-pressed", isOrigin ? "true" : "false");
      b.classList.toggle("target", targets.has(cell));
      b.setAttribute(
        "aria-label",
        targets.has(cell) ? fill(words.tTarget, { cell: b.dataset.words }) : b.dataset.words
      );
    }
    for (const b of hand.children) {
      b.setAttribute("aria-pressed", b.dataset.origin === key ? "true" : "false");
    }
    if (aloud) {
      const origin = seat.origins.find((o) => o.key === key);
      const cell = seat.cells.find((c) => origin && c.cell === origin.cell);
      const what = cell ? cell.words : origin ? origin.label : "";
      say(fill(words.tPicked, { what: what, count: String(targets.size) }));
    }
  }

  function letGo() {
    picked = null;
    if (seat && arranging()) {
      picks = {};
      which.hidden = true;
      arrange(false);
      say(words.tLetGo);
      return;
    }
    which.hidden = true;
    for (const b of cellsBox.children) {
      b.setAttribute("aria-pressed", "false");
      b.classList.remove("target");
      b.setAttribute("aria-label", b.dataset.words);
    }
    for (const b of hand.children) b.setAttribute("aria-pressed", "false");
    say(words.tLetGo);
  }

  const whichLabel = document.getElementById("which-label");

  function ask(choices, back) {
    whichLabel.textContent = words.tWhich;
    whichMoves.textContent = "";
    for (const c of choices) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c.shown;
      b.addEventListener("click", () => send(c.move, back));
      whichMoves.appendChild(b);
    }
    which.hidden = false;
    whichMoves.firstChild.focus();
    which.dataset.back = back ? String(back.dataset.cell) : "";
  }

  function clickCell(b) {
    if (!seat || !seat.acting || sending) return;
    if (arranging()) return place(b);
    const cell = Number(b.dataset.cell);
    if (picked !== null) {
      const moves = targetsOf(picked).filter((c) => c.to === cell);
      if (moves.length === 1) return send(moves[0].move, b);
      if (moves.length > 1) return ask(moves, b);
    }
    if (seat.origins.some((o) => o.key === "c" + cell)) {
      if (picked === "c" + cell) return letGo();
      return pick("c" + cell, true);
    }
    if (picked !== null && origins().length > 1) letGo();
  }

  function send(move, back) {
    if (sending) return;
    sending = true;
    const body = new FormData();
    body.append("move", move);
    body.append("csrf", otherForm.elements.csrf.value);
    body.append("ply", String(seat.ply));
    fetch("/g/" + token + "/move?lang=" + lang, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: Object.assign({ Accept: "application/json" }, auth),
    })
      .then((r) => r.json())
      .then((answer) => {
        say(answer.said);
        said.dataset.answers = String(Number(said.dataset.answers || 0) + 1);
        return load();
      })
      .catch(() => say(words.tFailed))
      .finally(() => {
        sending = false;
        if (back && back.isConnected) back.focus();
        else focusCell(Number(back && back.dataset ? back.dataset.cell : NaN));
      });
  }

  function focusCell(cell) {
    const found = cellsBox.querySelector('button[data-cell="' + cell + '"]');
    if (found) moveFocus(found);
  }

  function moveFocus(b) {
    for (const other of cellsBox.children) other.tabIndex = -1;
    b.tabIndex = 0;
    b.focus();
  }

  // the nearest cell in an arrow's direction, by where the cells are drawn (no board rule)
  function nearest(from, dx, dy) {
    const centre = (b) => {
      const r = b.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x, y] = centre(from);
    let best = null;
    let bestScore = Infinity;
    for (const b of cellsBox.children) {
      if (b === from) continue;
      const [bx, by] = centre(b);
      const along = (bx - x) * dx + (by - y) * dy;
      if (along <= 1) continue;
      const across = Math.abs((bx - x) * dy - (by - y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = b;
      }
    }
    return best;
  }

  cellsBox.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-cell]");
    if (b) clickCell(b);
  });
  cellsBox.addEventListener("keydown", (event) => {
    const b = event.target.closest("button[data-cell]");
    if (!b || event.altKey || event.ctrlKey || event.metaKey) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    let next = null;
    if (event.key in arrows) next = nearest(b, ...arrows[event.key]);
    else if (event.key === "Home") next = cellsBox.firstElementChild;
    else if (event.key === "End") next = cellsBox.lastElementChild;
    else if (event.key === "Escape") letGo();
    else return;
    event.preventDefault();
    event.stopPropagation(); // the page's own keys (stepping through the game) wait outside
    if (next) moveFocus(next);
  });
  hand.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-origin]");
    if (!b || !seat || !seat.acting) return;
    if (picked === b.dataset.origin) letGo();
    else pick(b.dataset.origin, true);
  });
  document.getElementById("which-cancel").addEventListener("click", () => {
    const back = which.dataset.back;
    which.hidden = true;
    if (back) focusCell(Number(back));
  });
  for (const form of document.querySelectorAll("form.move-form")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const move = form.elements.move.value.trim();
      if (move) send(move, null);
    });
  }
  // the board hides while the visitor steps back through the game
  game.addEventListener("banmen:shown", (event) => {
    cellsBox.hidden = !event.detail.latest;
  });
  // every move anyone makes: the seat's board again (its picture, its moves)
  game.addEventListener("banmen:update", () => load());
  load();
})();
