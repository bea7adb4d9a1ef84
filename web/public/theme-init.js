// The stored theme before the first paint, so a dark console never flashes light while it loads (next-themes
// keeps it current afterwards). A file of the app's own rather than an inline script: the Content-Security-Policy
// admits scripts from 'self' only. 'system' follows the operating system's prefers-color-scheme.
(function () {
  try {
    var theme = localStorage.getItem('preferredTheme');
    var dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    if (dark) {
      document.documentElement.classList.add('dark');
      document.documentElement.style.colorScheme = 'dark';
    }
  } catch (e) {
    /* no storage here: the light theme */
  }
})();
