/** A list entry's versions (VersionHistory), its picture shown as a picture. */
import {
  type Entry,
  IMAGE_LABELS,
  imageUrl,
  type ListSpec,
} from "../../../shared/admin/content.ts";
import { api, read } from "../../api/client.ts";
import { VersionHistory } from "./VersionHistory.tsx";

interface VersionsPanelProps {
  spec: ListSpec;
  entry: Entry;
  /** Changes after every write, to load the versions again. */
  writes: number;
  onRestored(entry: Entry): void;
}

function labelOf(spec: ListSpec, field: string): string {
  if (field === "imagePath" && spec.image) return IMAGE_LABELS[spec.image];
  return spec.fields.find((candidate) => candidate.name === field)?.label ?? field;
}

export function VersionsPanel({ spec, entry, writes, onRestored }: VersionsPanelProps) {
  const { image } = spec;
  return (
    <VersionHistory
      versions={read("content.versions", { params: { list: spec.list, id: entry.id } })}
      current={entry.version}
      writes={writes}
      labelOf={(field) => labelOf(spec, field)}
      renderValue={(field, value, version) =>
        field === "imagePath" && image ? (
          <img
            className={`version__picture version__picture--${image}`}
            src={imageUrl(image, value)}
            alt={`The ${IMAGE_LABELS[image].toLowerCase()} of version ${version}`}
          />
        ) : (
          value
        )
      }
      restore={async (version) => {
        const restored = await api.call("content.restore", {
          params: { list: spec.list, id: entry.id, version },
          body: { version: entry.version },
        });
        onRestored(restored);
        return restored.version;
      }}
    />
  );
}
