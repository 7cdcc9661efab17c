"use client";
import { useId, useState } from "react";
import { formatBytes } from "./format";
import styles from "./uploads.module.css";

/** Drag and drop a file, or choose one with the (keyboard-accessible) file input. */
export function DropZone({
  accept,
  file,
  onFile,
  disabled,
}: {
  accept: string;
  file: File | null;
  onFile: (file: File) => void;
  disabled?: boolean;
}) {
  const [over, setOver] = useState(false);
  const id = useId();
  return (
    <div
      className={`${styles.dropZone}${over ? ` ${styles.dropZoneOver}` : ""}`}
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const dropped = e.dataTransfer.files[0];
        if (dropped && !disabled) onFile(dropped);
      }}
    >
      <label htmlFor={id}>
        {file ? (
          <>
            <strong>{file.name}</strong> <span className="muted">({formatBytes(file.size)})</span>
          </>
        ) : (
          "Drop a file here, or choose one"
        )}
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          if (chosen) onFile(chosen);
        }}
      />
    </div>
  );
}
