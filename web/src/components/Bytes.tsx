// Human-readable bytes with the exact count on hover.
import { formatBytes } from "../../../shared/format.js";

export function Bytes({ value }: { value: number }) {
  return <span title={`${value.toLocaleString("en-US")} bytes`}>{formatBytes(value)}</span>;
}
