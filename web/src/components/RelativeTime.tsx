// "3d ago" with the exact local time on hover.
import { formatRelativeTime } from "../../../shared/format.js";

export function RelativeTime({ iso, now }: { iso: string; now: Date }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}
