// The projector page (scoring/templates/scoring/projector.html), a file of its own so that
// the Content-Security-Policy allows no inline script.
// The hall reads the list from afar: the column headings stay under the title (CSS:
// sticky, just below the title's measured height); the top rows stand still for a while
// before the list scrolls slowly to the bottom, waits there and jumps back to the top.
(function () {
  var TICK = 50, STEP = 2, TOP_PAUSE = 8000, BOTTOM_PAUSE = 4000;
  var root = document.documentElement;
  function measure() {
    var head = document.getElementById("projector-head");
    if (head) root.style.setProperty("--projector-head", head.offsetHeight + "px");
  }
  measure();
  window.addEventListener("resize", measure);
  document.addEventListener("htmx:afterSwap", measure); // the title comes with each refresh
  var wait = TOP_PAUSE, atBottom = false;
  setInterval(function () {
    if (wait > 0) { wait -= TICK; return; }
    if (atBottom) { window.scrollTo(0, 0); atBottom = false; wait = TOP_PAUSE; return; }
    if (window.innerHeight + window.scrollY >= root.scrollHeight - 2) {
      atBottom = true; wait = BOTTOM_PAUSE; return;
    }
    window.scrollBy(0, STEP);
  }, TICK);
})();
