// Runs in <head> before the page paints, so a dark-mode visitor never sees a white flash. An
// external file rather than an inline script: the Content-Security-Policy allows scripts from 'self'
// only. Keep the key and values in step with client/src/lib/theme.ts.
(function () {
  var choice = null;
  try {
    choice = window.localStorage.getItem('clipshift-theme');
  } catch (error) {
    // Storage refused (privacy mode): follow the system.
  }
  var dark = choice === 'dark' || (choice !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
})();
