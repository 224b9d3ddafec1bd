(function () {
  "use strict";
  var box = document.getElementById(":q"), out = document.getElementById(":q-n");
  var tools = Array.prototype.slice.call(document.querySelectorAll("section.tool"));
  var items = {};
  Array.prototype.forEach.call(document.querySelectorAll("nav li[data-t]"), function (li) { items[li.getAttribute("data-t")] = li; });
  var index = null;
  function build() {
    index = tools.map(function (s) {
      var sum = s.querySelector(".sum");
      return {
        s: s, li: items[s.id],
        t: (s.id + " " + (sum ? sum.textContent : "")).toLowerCase(),
        rows: Array.prototype.map.call(s.querySelectorAll("tbody tr"), function (r) {
          return { r: r, k: r.cells[0].textContent.toLowerCase() };
        })
      };
    });
  }
  function filter() {
    if (!index) build();
    var q = box.value.trim().toLowerCase(), shown = 0;
    index.forEach(function (e) {
      var whole = !q || e.t.indexOf(q) >= 0, any = whole;
      e.rows.forEach(function (x) {
        var m = whole || x.k.indexOf(q) >= 0;
        x.r.hidden = !m;
        if (m) any = true;
      });
      e.s.hidden = !any;
      if (e.li) e.li.hidden = !any;
      if (any) shown++;
    });
    out.textContent = q ? shown + " of " + index.length + " tools" : "";
  }
  if (box) {
    box.parentNode.hidden = false;
    box.addEventListener("input", filter);
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "/" && document.activeElement !== box) { ev.preventDefault(); box.focus(); }
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("pre.ex"), function (pre) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "copy"; b.textContent = "Copy";
    function done(text) { b.textContent = text; setTimeout(function () { b.textContent = "Copy"; }, 1500); }
    function fallback() {
      var range = document.createRange(), sel = window.getSelection();
      range.selectNodeContents(pre); sel.removeAllRanges(); sel.addRange(range);
      done(document.execCommand && document.execCommand("copy") ? "Copied" : "Selected: press Ctrl+C");
    }
    b.addEventListener("click", function () {
      var text = pre.textContent;
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { done("Copied"); }, fallback);
      } else fallback();
    });
    pre.parentNode.insertBefore(b, pre);
  });
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
  });
})();
