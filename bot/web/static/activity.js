// The board as a Discord Activity (issue 51, 3). Inside Discord's frame (its `frame_id` in the
// address) the Embedded App SDK's client; anywhere else the SDK's own mock client, as Discord's
// examples do, whose `authorize` answers the code given as `mock_code` (a developer's browser,
// the tests). The mock is harmless: the site believes only Discord (it trades the code there
// and looks the instance up there with the bot's token). Then the game of the Activity's
// channel: its page and, for a seated participant, their board (play.js), sent with the
// session as a bearer token held in this page's memory only. Every request is relative: inside
// Discord it goes through Discord's proxy to the site (the URL mapping of the root).
"use strict";
(function () {
  const root = document.getElementById("activity");
  const lib = window.DiscordEmbeddedAppSdk;
  if (!root || !lib) return;
  const params = new URLSearchParams(location.search);
  const clientId = root.dataset.clientId;
  const lang = root.dataset.lang;
  const status = document.getElementById("activity-status");
  const chooser = document.getElementById("activity-games");
  const list = document.getElementById("activity-list");
  const place = document.getElementById("activity-board");
  const inDiscord = params.has("frame_id");
  let sdk;
  if (inDiscord) {
    sdk = new lib.DiscordSDK(clientId);
  } else {
    sdk = new lib.DiscordSDKMock(clientId, params.get("guild_id"), params.get("channel_id"), null);
    const code = params.get("mock_code") || "mock_code";
    sdk._updateCommandMocks({ authorize: () => Promise.resolve({ code: code }) });
  }
  const instanceId = (!inDiscord && params.get("instance_id")) || sdk.instanceId;
  let shown = null; // the token of the game shown

  function bearer() {
    const a = window.banmenActivity;
    return { Authorization: "Bearer " + a.session, "X-Banmen-Pass": a.pass };
  }

  function fail(answer) {
    status.textContent = answer && answer.said ? answer.said : root.dataset.tFailed;
  }

  function json(r) {
    return r.json().then((data) => (r.ok ? data : Promise.reject(data)));
  }

  function gameAddress(token, part) {
    const query = new URLSearchParams({ instance_id: instanceId, lang: lang });
    if (part) query.set("part", part);
    return "/activity/g/" + encodeURIComponent(token) + "?" + query;
  }

  function fragment(r) {
    return r.ok ? r.text() : json(r);
  }

  function addScript(src) {
    const s = document.createElement("script");
    s.src = src;
    s.async = false; // site.js before play.js, as on the game's page
    document.body.appendChild(s);
  }

  function open(token) {
    shown = token;
    chooser.hidden = true;
    return fetch(gameAddress(token), { headers: bearer() })
      .then(fragment)
      .then((html) => {
        place.innerHTML = html; // the site's own template (escaped by it)
        status.textContent = "";
        addScript("/static/site.js");
        if (document.getElementById("play")) addScript("/static/play.js");
      })
      .catch(fail);
  }

  // who is here changed: the participants against the seats again
  function people() {
    if (shown === null) return;
    fetch(gameAddress(shown, "people"), { headers: bearer() })
      .then(fragment)
      .then((html) => {
        const old = document.getElementById("people");
        if (old) old.outerHTML = html;
      })
      .catch(() => {});
  }

  function choose(games) {
    if (games.length === 0) {
      status.textContent = root.dataset.tNone;
      return;
    }
    if (games.length === 1) return open(games[0].token);
    status.textContent = "";
    list.textContent = "";
    for (const game of games) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = game.title + ": " + game.players;
      b.addEventListener("click", () => open(game.token));
      li.appendChild(b);
      list.appendChild(li);
    }
    chooser.hidden = false;
  }

  sdk
    .ready()
    .then(() =>
      sdk.commands.authorize({
        client_id: clientId,
        response_type: "code",
        state: "",
        prompt: "none",
        scope: ["identify"],
      }),
    )
    .then((answer) => {
      const body = new URLSearchParams({ code: answer.code, instance_id: instanceId });
      return fetch("/activity/token?lang=" + lang, {
        method: "POST",
        body: body,
        headers: { Accept: "application/json" },
      });
    })
    .then(json)
    .then((entered) => {
      window.banmenActivity = { session: entered.session, csrf: entered.csrf, pass: entered.pass };
      return sdk.commands.authenticate({ access_token: entered.access_token }).then(() => entered);
    })
    .then((entered) => {
      sdk.subscribe(lib.Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, people);
      return choose(entered.games);
    })
    .catch(fail);
})();
