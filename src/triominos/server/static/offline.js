// The page the service worker (sw.js) shows for an address it cannot reach the server
// for: it says so in the chosen language, from the cached locale files, and tries again.

import { speak } from "./dom.js";

await speak("/static/locales", () => {});
document.querySelector("[data-testid=offline-retry]").addEventListener("click", () => location.reload());
