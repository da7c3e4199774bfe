import { useState } from 'react';
import { validateUploadType, DEFAULT_UPLOAD_TYPES } from '../../lib/validators';
import { notify } from '../../lib/toast';
import type { FieldProps } from './props';
import type { FileValue, PickedFile } from './types';

/** Spec §5: the image gallery hides its add control at 12 images. */
export const GALLERY_LIMIT = 12;

export function readPickedFile(file: File): Promise<PickedFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, type: file.type, dataUrl: String(reader.result) });
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

const nameOf = (f: FileValue) => (typeof f === 'string' ? (f.split('/').pop() ?? f) : f.name);
const isImage = (f: FileValue) => /\.(png|jpe?g|bmp|gif|webp)$/i.test(nameOf(f));

interface UploadProps extends FieldProps<FileValue[]> {
  /** Where stored files are served from: /uploads/{company}. */
  uploadsBase: string;
}

/** UPLOAD (one file) and GALLERY (up to 12 images): stored files are shown, new ones checked by type. */
export function UploadField(p: UploadProps) {
  const [busy, setBusy] = useState(false);
  const files = p.value ?? [];
  const gallery = p.field.type === 'GALLERY';
  const allowed = p.field.uploadTypes?.length ? p.field.uploadTypes : DEFAULT_UPLOAD_TYPES;
  const canAdd = !p.disabled && (gallery ? files.length < GALLERY_LIMIT : files.length === 0);
  const src = (f: FileValue) => (typeof f === 'string' ? `${p.uploadsBase}/${encodeURIComponent(f)}` : f.dataUrl);

  const onPick = async (list: FileList | null) => {
    if (!list) return;
    const picked: PickedFile[] = [];
    setBusy(true);
    try {
      for (const file of Array.from(list)) {
        const msg = validateUploadType(file.name, allowed);
        if (msg) {
          notify.warning(msg);
          continue;
        }
        picked.push(await readPickedFile(file));
      }
    } finally {
      setBusy(false);
    }
    const room = gallery ? GALLERY_LIMIT - files.length : 1;
    if (picked.length) p.onChange([...files, ...picked.slice(0, room)]);
  };

  return (
    <div id={p.id} tabIndex={-1} aria-describedby={p.describedBy}>
      <ul className={gallery ? 'grid grid-cols-3 gap-2 sm:grid-cols-4' : 'space-y-1'}>
        {files.map((f, i) => (
          <li key={`${nameOf(f)}-${i}`} className="relative rounded border border-slate-200 p-1 text-xs">
            {isImage(f) ? (
              <img src={src(f)} alt={nameOf(f)} className="h-20 w-full object-contain" />
            ) : (
              <a href={src(f)} target="_blank" rel="noreferrer" className="text-accent underline">
                {nameOf(f)}
              </a>
            )}
            {!p.disabled && (
              <button
                type="button"
                aria-label={`Remover ${nameOf(f)}`}
                className="absolute right-0.5 top-0.5 rounded bg-white/80 px-1 text-error"
                onClick={() => p.onChange(files.filter((_, j) => j !== i))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {files.length === 0 && !canAdd && <p className="text-sm text-slate-500">Nenhum arquivo.</p>}
      {canAdd && (
        <label className="mt-1 inline-flex cursor-pointer items-center gap-1 rounded border border-dashed border-slate-400 px-3 py-1.5 text-sm text-slate-700">
          {busy ? 'Carregando...' : gallery ? 'Adicionar imagens' : 'Escolher arquivo'}
          <input
            type="file"
            className="sr-only"
            multiple={gallery}
            accept={allowed.map((t) => `.${t}${t === 'jpeg' ? ',.jpg' : ''}`).join(',')}
            onChange={(e) => {
              void onPick(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
      )}
    </div>
  );
}
