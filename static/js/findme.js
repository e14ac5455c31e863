// "Meine Startnummer" on the start page (templates/home.html): opens the player's page of
// the chosen tournament.  A file of its own: the Content-Security-Policy allows no inline
// script or event handler.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form.findme").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var t = form.elements.t.value, n = form.elements.n.value.trim();
      if (t && /^[0-9]+$/.test(n)) {
        location.href = form.dataset.playerUrl.replace("T", t).replace("N", n);
      }
    });
  });
});
