// Fiscal steps of the browser journey (issue 16) that journey.ts calls with the fake Nuvem Fiscal
// configured: the MDF-e the demo typed is issued from its screen and its DAMDFE downloaded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** What the journey lends its fiscal steps. */
export interface Journey {
  page: Page;
  base: string;
  artifacts: string;
  viewport: string;
  /** Runs a named step: screenshot after it, counted, reported. */
  step: (label: string, body: () => Promise<void>) => Promise<void>;
  /** A list row (desktop table row or mobile card) holding `text`. */
  rowOf: (text: string) => Locator;
}

/** The demo's MDF-e: auto parts from São Paulo to Caxias do Sul, R$ 32.000,00 of cargo. */
const DEMO_MDFE_LOAD = '32.000,00';

export async function fiscalSteps({ page, base, artifacts, viewport, step, rowOf }: Journey) {
  // Issued from its screen, authorised with its number, its DAMDFE downloaded as a PDF. A second
  // viewport finds it authorised already and only downloads it.
  await step('mdfe-emitted', async () => {
    await page.goto(`${base}/mdfe`);
    await rowOf(DEMO_MDFE_LOAD)
      .first()
      .getByRole('button', { name: /^(Editar|Visualizar)$/ })
      .click();
    const status = page.getByTestId('status-badge');
    await status.waitFor();
    // The rows the emission needs are on the screen: the unloading city and its NF-e, the truck.
    await page.getByText('Caxias do Sul').first().waitFor();
    await page.getByText('IZA3B45').first().waitFor();
    if ((await status.innerText()) !== 'Autorizado') {
      await page.getByRole('button', { name: 'Emitir MDF-e' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Emitir' }).click();
    }
    await status.filter({ hasText: 'Autorizado' }).waitFor({ timeout: 30_000 });
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'DAMDFE' }).click();
    const file = await downloaded;
    const path = join(artifacts, `${viewport}-damdfe.pdf`);
    await file.saveAs(path);
    if (!readFileSync(path).subarray(0, 4).equals(Buffer.from('%PDF')))
      throw new Error(`the DAMDFE downloaded ('${file.suggestedFilename()}') is not a PDF`);
  });
}
