// Clerk hand form: Enter saves from every field (selects included), an error that htmx
// shows inside the collapsed "Sonderspiel, Strafe" section opens it and marks the field,
// and "Felder jetzt leeren" empties the trick fields of an Abgehen.  The page works
// without this script: the server opens the section and focuses the first wrong field.
(function () {
  "use strict";
  function form() { return document.getElementById("eingabe"); }
  document.addEventListener("keydown", function (event) {
    var f = form();
    var target = event.target;
    if (!f || event.key !== "Enter" || event.isComposing || !f.contains(target)) return;
    if (target.tagName === "SELECT" || (target.tagName === "INPUT" && target.type === "checkbox")) {
      event.preventDefault();
      if (f.requestSubmit) f.requestSubmit(); else f.submit();
    }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-clear-tricks]");
    var f = form();
    if (!button || !f) return;
    f.querySelectorAll("input[name^='tricks_']").forEach(function (input) { input.value = ""; });
    var box = f.querySelector("input[name='clear_tricks']");
    if (box) box.checked = true;
    f.dispatchEvent(new Event("change", { bubbles: true }));
  });
  document.addEventListener("htmx:afterSwap", function () {
    var f = form();
    if (!f) return;
    f.querySelectorAll(".err").forEach(function (box) {
      var name = box.id.replace(/^err-/, "");
      var input = f.querySelector("[name='" + name + "']");
      // data-wrong: the field is wrong, its message is shown once for its row (err-tricks)
      var wrong = box.textContent.trim() !== "" || box.hasAttribute("data-wrong");
      if (input) {
        if (wrong) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
      }
      if (name === "clear_tricks") {
        var offer = document.getElementById("clear-tricks");
        if (offer && wrong) offer.hidden = false;
      }
      if (wrong) {
        var section = box.closest("details");
        if (section) section.open = true;
      }
    });
  });
  // A Durch (where the rules say so) and a Bettel have no trump: the outcome select lists
  // them in data-no-trump; choosing one empties the trump ("—" or "ohne") and locks the
  // suits until another outcome is chosen.  The server refuses a trump sent anyway.
  function syncTrump() {
    var f = form();
    var outcome = f && f.querySelector("[name='outcome'][data-no-trump]");
    if (!outcome) return;
    var off = outcome.dataset.noTrump.split(" ").indexOf(outcome.value) >= 0;
    f.querySelectorAll("[name='trump']").forEach(function (field) {
      if (field.tagName === "SELECT") {
        if (off) field.value = "";
        Array.prototype.forEach.call(field.options, function (option) {
          option.disabled = off && option.value !== "";
        });
      } else {
        if (off && field.value === "") field.checked = true;
        field.disabled = off && field.value !== "";
      }
    });
  }
  // capture phase: the trump is emptied before htmx sends the form for the preview
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "outcome") syncTrump();
  }, true);
  syncTrump();
})();
