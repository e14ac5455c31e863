// Registration type-ahead: choosing a known player from the list htmx fetched fills the
// form and remembers the player's number, so the same person is registered again (and
// recognised across a series).  Typing in a name field again forgets the choice.  Without
// this script the form still works: a player with the same name and club is reused.
(function () {
  "use strict";
  function field(form, name) { return form.querySelector("[name='" + name + "']"); }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.match");
    if (!button) return;
    var form = button.closest("form");
    field(form, "first_name").value = button.dataset.first;
    field(form, "last_name").value = button.dataset.last;
    field(form, "club").value = button.dataset.club;
    field(form, "year_of_birth").value = button.dataset.year;
    field(form, "player_id").value = button.dataset.player;
    var box = document.getElementById("player-matches");
    box.textContent = "";
    var chosen = document.createElement("p");
    chosen.className = "small chosen";
    chosen.textContent = box.dataset.chosen + " " + button.textContent;
    box.appendChild(chosen);
    var start = field(form, "start_number");
    if (start) start.focus();
  });
  document.addEventListener("input", function (event) {
    var name = event.target.name;
    if (name !== "first_name" && name !== "last_name") return;
    var id = field(event.target.form, "player_id");
    if (id) id.value = "";
  });
})();
