// Vitest global setup of the real-agent suite: the pinned agent CLIs installed (or found installed)
// before any test file starts, so that the install's minute is not counted against a test's timeout.
import { ensureTestAgents } from "../test-agents.js";

export default function setup() {
  ensureTestAgents();
}
