// A mock model on 127.0.0.1 for tests that run real agents: see server.ts, and turn.ts for the script.
export { DIALECTS, type MockModel, type SeenRequest, startMockModel } from "./server.js";
export { defaultResponder, type Reply, type Responder, type Turn } from "./turn.js";
export type { Dialect } from "./dialect.js";
