// A game's page: step through its pictures (buttons, arrow keys, a click on a move), and while
// the game runs, follow it (server-sent events). No framework; loaded as a file (the CSP allows
// no inline script).
"use strict";
(function () {
  const game = document.getElementById("game");
  if (!game) return;
  const token = game.dataset.token;
  const lang = game.dataset.lang;
  const board = document.getElementById("board");
  const where = document.getElementById("where");
  const moves = document.getElementById("moves");
  let total = Number(game.dataset.total);
  let ply = Number(game.dataset.ply);
  let version = Number(game.dataset.version);
  const template = where.textContent.replace(String(ply), "{ply}").replace(String(total), "{total}");

  function show(next, push) {
    ply = Math.max(0, Math.min(total, next));
    // a seated visitor's latest position is their own seat's picture (play.js keeps it)
    const seat = ply === total ? game.dataset.seatPicture : undefined;
    board.src = seat || "/g/" + token + "/" + ply + ".png?v=" + version;
    game.dataset.ply = String(ply);
    where.textContent = template.replace("{ply}", String(ply)).replace("{total}", String(total));
    describe(ply);
    for (const a of moves.querySelectorAll("a[data-ply]")) {
      if (Number(a.dataset.ply) === ply) {
        a.setAttribute("aria-current", "true");
        a.scrollIntoView({ block: "nearest" });
      } else {
        a.removeAttribute("aria-current");
      }
    }
    // (inside the Discord Activity the address is Discord's frame's: it stays as it is)
    if (push && !window.banmenActivity) history.replaceState(null, "", "?ply=" + ply + "&lang=" + lang);
    const analyse = document.getElementById("analyse");
    if (analyse) analyse.href = "/g/" + token + "/analyse?ply=" + ply + "&lang=" + lang;
    const other = document.querySelector("header a.lang"); // the same move, in the other language
    if (other) other.href = "?lang=" + other.hreflang + "&ply=" + ply;
    game.dispatchEvent(new CustomEvent("banmen:shown", { detail: { latest: ply === total } }));
  }

  // The picture's alt text: the position in words, asked for each ply shown (the latest one
  // comes with each live update).
  let described = { ply: ply, text: board.alt };
  function describe(shown) {
    if (shown === total && game.dataset.seatWords) {
      board.alt = game.dataset.seatWords;
      return;
    }
    if (described.ply === shown) {
      board.alt = described.text;
      return;
    }
    fetch("/g/" + token + "/" + shown + ".txt?lang=" + lang + "&v=" + version)
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((text) => {
        described = { ply: shown, text: text };
        if (ply === shown) board.alt = text;
      })
      .catch(() => {});
  }

  game.addEventListener("banmen:seat", () => {
    if (ply === total) show(total, false); // play.js has the seat's new picture
  });

  const steps = { first: () => 0, prev: () => ply - 1, next: () => ply + 1, last: () => total };
  for (const [id, to] of Object.entries(steps)) {
    document.getElementById(id).addEventListener("click", (event) => {
      event.preventDefault();
      show(to(), true);
    });
  }
  moves.addEventListener("click", (event) => {
    const a = event.target.closest("a[data-ply]");
    if (!a) return;
    event.preventDefault();
    show(Number(a.dataset.ply), true);
  });
  // ← and → step anywhere on the page (they scroll nothing here); Home and End go to the start
  // and the end from the board, its steps or the move list, and scroll the page elsewhere.
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    const id = keys[event.key];
    if (!id) return;
    const inside = event.target.closest && event.target.closest(".board-wrap, #moves");
    if ((id === "first" || id === "last") && !inside) return;
    event.preventDefault();
    show(steps[id](), true);
  });

  const announce = document.getElementById("announce");
  function update(data) {
    const following = ply === total;
    const moved = data.total !== total || data.ends.length > 0;
    version = data.version;
    total = data.total;
    described = { ply: total, text: data.described };
    // a screen reader hears each new move: the new position in words (aria-live)
    if (moved) announce.textContent = data.described;
    game.dataset.version = String(version);
    game.dataset.total = String(total);
    moves.textContent = "";
    data.moves.forEach((text, i) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "?ply=" + (i + 1) + "&lang=" + lang;
      a.dataset.ply = String(i + 1);
      a.textContent = text;
      li.appendChild(a);
      moves.appendChild(li);
    });
    const ends = document.getElementById("ends");
    ends.textContent = "";
    for (const line of data.ends) {
      const p = document.createElement("p");
      p.textContent = line;
      ends.appendChild(p);
    }
    show(following ? total : ply, false);
    game.dispatchEvent(new CustomEvent("banmen:update", { detail: data }));
  }

  if (game.dataset.live === "true" && window.EventSource) {
    // an Activity's participant counts by their pass, not Discord's proxy's address
    const pass = window.banmenActivity ? "&pass=" + encodeURIComponent(window.banmenActivity.pass) : "";
    const source = new EventSource("/g/" + token + "/events?v=" + version + "&lang=" + lang + pass);
    source.onmessage = (event) => {
      const data = JSON.parse(event.data);
      update(data);
      if (!data.live) source.close();
    };
  }
})();
