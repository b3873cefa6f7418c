// lorebook ui: the live timeline. Every value from the server goes in as text (textContent), never as HTML.
(function () {
  "use strict";
  var timeline = document.getElementById("timeline");
  if (!timeline) { return; }
  var session = timeline.getAttribute("data-session");
  var last = parseInt(timeline.getAttribute("data-last") || "0", 10);

  function span(cls, text) {
    var el = document.createElement(cls === "target" ? "code" : (cls === "tool" ? "b" : "span"));
    if (cls !== "tool" && cls !== "target") { el.className = cls; }
    el.textContent = text == null ? "" : String(text);
    return el;
  }

  function add(o) {
    var li = document.createElement("li");
    li.className = o.outcome === "error" ? "obs error live" : "obs live";
    li.id = "obs-" + o.id;
    li.appendChild(span("meta", o.created_at));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(span("tool", o.tool));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(span("target", o.target));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(span("outcome", o.outcome));
    if (o.error_signature) {
      li.appendChild(document.createTextNode(" "));
      li.appendChild(span("signature", o.error_signature));
    }
    timeline.appendChild(li);
  }

  function poll() {
    fetch("/session/" + encodeURIComponent(session) + "/observations.json?after=" + last, {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : {observations: []}; })
      .then(function (data) {
        data.observations.forEach(function (o) { if (o.id > last) { add(o); last = o.id; } });
      })
      .catch(function () {})
      .then(function () { setTimeout(poll, 1500); });
  }
  setTimeout(poll, 1500);
}());
