// Entry point of the dashboard single-page app.
import { render } from "preact";
import { createApiClient, takeToken } from "./api/client.js";
import { App } from "./App.js";
import { createLiveFeed } from "./state/live.js";
import { createSessionFollow } from "./state/session-follow.js";
import { createSessionsStore } from "./state/sessions-store.js";
import { createSummaryStore } from "./state/summary-store.js";
import "./styles.css";

// The token leaves the address bar before the router reads the fragment.
takeToken();
const api = createApiClient();
const summary = createSummaryStore(api);
const sessions = createSessionsStore(api);
const follow = createSessionFollow();
const live = createLiveFeed(
  {
    look: (change) => {
      summary.applyLook(change);
      sessions.applyLook(change);
      follow.applyLook(change);
    },
    // Looks were missed while the stream was cut: what the page shows is loaded again, once.
    reopened: () => {
      summary.forgetVersion();
      void summary.refresh();
      sessions.resync();
      follow.missed();
    },
  },
  api,
);
render(
  <App api={api} store={summary} sessions={sessions} live={live} follow={follow} />,
  document.getElementById("app")!,
);
