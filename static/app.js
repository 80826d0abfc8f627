// Keyboard navigation for replay pages, like lichess: ← → Home End, j k, and ? for help.
// The pages work without it: every key has a link.
(function () {
  function go(key) {
    var a = document.querySelector('[data-key="' + key + '"]');
    if (a && a.href) { window.location.href = a.href; }
  }
  var keys = { ArrowLeft: 'prev', k: 'prev', ArrowRight: 'next', j: 'next', Home: 'first', End: 'last' };
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) { return; }
    var help = document.getElementById('help');
    if (e.key === '?' && help && help.showModal) { help.open ? help.close() : help.showModal(); e.preventDefault(); return; }
    if (keys[e.key]) { go(keys[e.key]); e.preventDefault(); }
  });
  // "link to this turn" copies its address; without a clipboard it is an ordinary link.
  document.querySelectorAll('[data-copy]').forEach(function (a) {
    a.addEventListener('click', function (e) {
      if (!navigator.clipboard) { return; }
      e.preventDefault();
      navigator.clipboard.writeText(a.href).then(function () {
        var was = a.textContent;
        a.textContent = 'copied';
        setTimeout(function () { a.textContent = was; }, 1500);
      });
    });
  });
  var button = document.querySelector('[data-help]');
  if (button) {
    button.addEventListener('click', function () {
      var help = document.getElementById('help');
      if (help && help.showModal) { help.showModal(); }
    });
  }
})();
