// Entry point of the dashboard single-page app.
import { render } from "preact";
import { createApiClient, takeToken } from "./api/client.js";
import { App } from "./App.js";
import { createSessionsStore } from "./state/sessions-store.js";
import { createSummaryStore } from "./state/summary-store.js";
import "./styles.css";

// The token leaves the address bar before the router reads the fragment.
takeToken();
const api = createApiClient();
render(
  <App api={api} store={createSummaryStore(api)} sessions={createSessionsStore(api)} />,
  document.getElementById("app")!,
);
