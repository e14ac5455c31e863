// Table entry on a phone: a hand typed while the venue's Wi-Fi is down is not lost.
// "Spiel eintragen" sends the form with fetch (Accept: application/json).  When the
// network fails, the entry is kept in localStorage ("nicht gesendet") and sent again as
// soon as the browser is online, with the same optimistic version check as the clerk's
// page: the server answers "saved" (also for a repeated send of what it already has),
// "invalid" or "conflict" (someone else saved that game: both versions are shown).
// Without this script the form posts normally.
(function () {
  "use strict";
  var root = document.getElementById("table-entry");
  if (!root || !window.fetch || !window.localStorage) return;
  var KEY = "table-entry:" + root.dataset.tokenKey;
  var postUrl = root.dataset.post;
  var sending = false;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (e) { return []; }
  }
  function store(queue) { localStorage.setItem(KEY, JSON.stringify(queue)); }
  function text(s) { var d = document.createElement("span"); d.textContent = s; return d; }

  function render() {
    var queue = load();
    var list = document.getElementById("pending");
    var status = document.getElementById("net-status");
    list.innerHTML = "";
    queue.forEach(function (item) {
      var li = document.createElement("li");
      li.dataset.number = item.number;
      li.className = "hand " + item.state;
      li.appendChild(text(item.number + ". " + (item.summary || "")));
      var badge = text(item.state === "unsent" ? root.dataset.unsent : root.dataset.conflict);
      badge.className = "state " + (item.state === "unsent" ? "unsent" : "unconfirmed");
      li.appendChild(badge);
      if (item.message) {
        var p = document.createElement("p");
        p.className = "small error";
        p.textContent = item.message;
        li.appendChild(p);
        var drop = document.createElement("button");
        drop.type = "button";
        drop.textContent = root.dataset.drop;
        drop.addEventListener("click", function () {
          store(load().filter(function (q) { return q.id !== item.id; }));
          render();
        });
        li.appendChild(drop);
      }
      list.appendChild(li);
    });
    list.hidden = queue.length === 0;
    if (!navigator.onLine) {
      status.textContent = root.dataset.offline;
      status.hidden = false;
    } else if (queue.some(function (q) { return q.state === "unsent"; })) {
      status.textContent = root.dataset.sending;
      status.hidden = false;
    } else {
      status.hidden = true;
    }
  }

  function summary(form) {
    var declarer = form.querySelector("[name='declarer']");
    var name = declarer && declarer.selectedIndex > 0 ? declarer.options[declarer.selectedIndex].text : "";
    var bid = (form.querySelector("[name='bid']") || {}).value || "";
    return (name + " " + bid).trim();
  }

  // one send; resolves to "saved", "invalid", "conflict", "refused" or "network"
  function send(item) {
    var body = new URLSearchParams(item.data);
    return fetch(postUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": root.dataset.csrf },
    }).then(function (response) {
      return response.json().then(function (answer) {
        item.message = answer.message || "";
        if (answer.status === "invalid") {
          item.message = Object.keys(answer.errors || {}).map(function (k) {
            return answer.errors[k].join(" ");
          }).join(" ");
        }
        return answer.status || "network";
      }, function () {
        // no JSON: a proxy or a server that is restarting means "try again later";
        // anything else (a 403 after the CSRF cookie changed, a 500) would fail again
        // on every retry, so the hand is shown as not accepted, with the reason
        if (response.status === 502 || response.status === 503 || response.status === 504) {
          return "network";
        }
        item.message = (root.dataset.refused || "HTTP {code}").replace("{code}", response.status);
        return "refused";
      });
    }, function () { return "network"; });
  }

  function flush() {
    if (sending || !navigator.onLine) { render(); return Promise.resolve(); }
    var queue = load().filter(function (q) { return q.state === "unsent"; });
    if (!queue.length) { render(); return Promise.resolve(); }
    sending = true;
    var savedAny = false;
    var chain = Promise.resolve();
    queue.forEach(function (item) {
      chain = chain.then(function () {
        return send(item).then(function (result) {
          var all = load();
          if (result === "saved") {
            savedAny = true;
            store(all.filter(function (q) { return q.id !== item.id; }));
          } else if (result !== "network") {
            all.forEach(function (q) { if (q.id === item.id) { q.state = "conflict"; q.message = item.message; } });
            store(all);
          }
        });
      });
    });
    return chain.then(function () {
      sending = false;
      render();
      if (savedAny && !load().some(function (q) { return q.state === "unsent"; })) {
        window.location.replace(window.location.pathname);
      }
    });
  }

  function nextHand(form) {
    // ready for the next game while offline: next number, next dealer, empty fields
    var number = form.querySelector("[name='number']");
    number.value = String(parseInt(number.value, 10) + 1);
    var dealer = form.querySelector("[name='dealer']");
    if (dealer) dealer.selectedIndex = (dealer.selectedIndex + 1) % dealer.options.length;
    form.querySelectorAll("input[type='number'], input[inputmode='numeric']").forEach(function (i) { i.value = ""; });
    ["declarer", "trump", "won", "penalty_type", "penalty_seat"].forEach(function (n) {
      var s = form.querySelector("[name='" + n + "']");
      if (s && s.type === "radio") s.checked = true; // the first button, "—"
      else if (s) s.selectedIndex = 0;
    });
    var version = form.querySelector("[name='version']");
    if (version) version.value = "";
    var heading = form.querySelector("h2");
    if (heading) heading.textContent = heading.textContent.replace(/\d+\s*$/, number.value);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "eingabe") return;
    event.preventDefault();
    var data = [];
    new FormData(form).forEach(function (value, name) { data.push([name, value]); });
    var item = {
      id: Date.now() + "-" + Math.random().toString(16).slice(2),
      number: (form.querySelector("[name='number']") || {}).value,
      summary: summary(form),
      data: data,
      state: "unsent",
    };
    var queue = load();
    queue.push(item);
    store(queue);
    if (!navigator.onLine) { nextHand(form); render(); return; }
    sending = true;
    send(item).then(function (result) {
      sending = false;
      if (result === "network") { nextHand(form); render(); return; }
      store(load().filter(function (q) { return q.id !== item.id; }));
      if (result === "saved") { window.location.replace(window.location.pathname); return; }
      // invalid or conflict: let the server show the errors (or both versions) in place
      HTMLFormElement.prototype.submit.call(form);
    });
  });

  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  // also retry now and then: a phone may miss the "online" event when the Wi-Fi returns
  window.setInterval(flush, 15000);
  flush();
})();
