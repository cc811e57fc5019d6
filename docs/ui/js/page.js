// What the page's blocks get in the browser: code highlighted (highlight.js, from the block's language) with a button
// that copies its text, for readers who paste the examples; a picture that opens at full size, for diagrams whose
// labels a narrow window shrinks.
(function () {
  if (window.hljs) {
    document.querySelectorAll('pre.highlight > code[data-lang]').forEach(function (code) {
      window.hljs.highlightElement(code);
    });
  }
  document.querySelectorAll('.listingblock pre, .literalblock pre').forEach(function (pre) {
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(pre.innerText.replace(/\n$/, '')).then(function () {
        button.textContent = 'Copied';
        setTimeout(function () { button.textContent = 'Copy'; }, 1500);
      });
    });
    pre.parentNode.classList.add('has-copy');
    pre.parentNode.insertBefore(button, pre);
  });
  document.querySelectorAll('.imageblock img').forEach(function (img) {
    if (img.parentNode.tagName !== 'A') {
      var link = document.createElement('a');
      link.href = img.src;
      link.title = 'Open at full size';
      img.parentNode.insertBefore(link, img);
      link.appendChild(img);
    }
  });
})();
