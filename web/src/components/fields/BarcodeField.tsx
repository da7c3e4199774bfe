import { useEffect, useRef, useState } from 'react';
import type { FieldProps } from './props';
import { inputClass, secondaryButton } from './styles';

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type DetectorCtor = new (opts: { formats: string[] }) => BarcodeDetectorLike;

/** The reader reads EAN codes only (spec §5). */
export const EAN_FORMATS = ['ean_13', 'ean_8'];

const detectorCtor = (): DetectorCtor | undefined =>
  (globalThis as unknown as { BarcodeDetector?: DetectorCtor }).BarcodeDetector;

/** Typed code, or read by the camera where the browser has a barcode detector. */
export function BarcodeField(p: FieldProps<string>) {
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const supported = Boolean(detectorCtor()) && Boolean(navigator.mediaDevices?.getUserMedia);
  const { onChange } = p;

  useEffect(() => {
    if (!scanning) return;
    const Ctor = detectorCtor();
    if (!Ctor) return;
    const detector = new Ctor({ formats: EAN_FORMATS });
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } }).then(
      async (s) => {
        if (stopped) return s.getTracks().forEach((t) => t.stop());
        stream = s;
        if (!video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        const scan = async () => {
          if (!video.current) return;
          const codes = await detector.detect(video.current);
          if (codes.length > 0) {
            // The camera stops after the first detection.
            onChange(codes[0].rawValue);
            setScanning(false);
          }
        };
        timer = setInterval(() => void scan(), 250);
      },
      () => setScanning(false),
    );
    return () => {
      stopped = true;
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [scanning, onChange]);

  return (
    <div>
      <div className="flex gap-1">
        <input
          id={p.id}
          name={p.field.name}
          className={inputClass}
          inputMode="numeric"
          disabled={p.disabled}
          aria-invalid={p.invalid}
          aria-describedby={p.describedBy}
          value={p.value ?? ''}
          onChange={(e) => p.onChange(e.target.value.replace(/\D/g, '').slice(0, 14))}
        />
        {supported && !p.disabled && (
          <button type="button" className={secondaryButton} onClick={() => setScanning((s) => !s)}>
            {scanning ? 'Parar' : 'Câmera'}
          </button>
        )}
      </div>
      {scanning && <video ref={video} className="mt-1 max-h-48 w-full rounded bg-black" muted playsInline />}
    </div>
  );
}
