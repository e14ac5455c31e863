// Polled parts of a page (hx-trigger "every …": the standings, the projector) wait while
// their browser tab is hidden: a phone in a pocket or a tab in the background sends no
// request and uses no battery or data (issue 41). When the tab is shown again, they
// refresh at once ("binokel:shown", listened to from the document) instead of after up
// to one more interval. A file of its own, so the Content-Security-Policy allows no
// inline script.
(function () {
  document.addEventListener("htmx:beforeRequest", function (event) {
    var trigger = event.detail.elt && event.detail.elt.getAttribute("hx-trigger");
    if (document.hidden && trigger && trigger.indexOf("every ") !== -1) {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      document.dispatchEvent(new CustomEvent("binokel:shown"));
    }
  });
})();
