/* saikoro: copy an enemy to ココフォリア (the clipboard JSON is the button's data-ccfolia
 * attribute). Event delegation on document, so it keeps working after instant navigation. */
(function () {
  "use strict";
  function say(button, text) {
    var box = button.parentNode && button.parentNode.querySelector(".saikoro-copied");
    if (box) box.textContent = text;
  }
  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.saikoro-ccfolia");
    if (!button) return;
    var text;
    try { text = JSON.stringify(JSON.parse(button.getAttribute("data-ccfolia") || "")); }
    catch (e) { say(button, "データが読めません"); return; }
    var copy = navigator.clipboard && window.isSecureContext
      ? navigator.clipboard.writeText(text) : fallbackCopy(text);
    copy.then(function () { say(button, "コピーしました。ココフォリアの部屋に貼り付けてください。"); },
              function () { say(button, "コピーできませんでした（ブラウザが許可していません）"); });
  });
})();
