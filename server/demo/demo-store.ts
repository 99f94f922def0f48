// Placeholder: replaced by the demo-store generator.
import { mkdirSync } from "node:fs";
export async function ensureDemoStore(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
}
