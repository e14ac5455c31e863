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
      var wrong = box.textContent.trim() !== "";
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
})();
