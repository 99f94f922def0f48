// Entry point of the dashboard single-page app.
import { render } from "preact";
import { App } from "./App.js";
import { createSummaryStore } from "./state/summary-store.js";
import "./styles.css";

render(<App store={createSummaryStore()} />, document.getElementById("app")!);
