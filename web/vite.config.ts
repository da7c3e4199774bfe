/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const backend = process.env.ERP_BACKEND_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: backend, changeOrigin: true, ws: true },
      '/uploads': { target: backend, changeOrigin: true },
      // The purchases' NF-e XML import posts the file to this legacy REST call.
      '/compra/uploads': { target: backend, changeOrigin: true },
      // Receipts are PDFs the legacy REST calls answer ('/reciboavulso' alone is the screen).
      '/contasreceber/recibo': { target: backend, changeOrigin: true },
      '/contaspagar/recibo': { target: backend, changeOrigin: true },
      '/reciboavulso/': { target: backend, changeOrigin: true },
      // Banking: slip PDFs, CNAB files, OFX import, the Domínio export.
      '/boletos/': { target: backend, changeOrigin: true },
      '/conciliacaobancaria/ofx': { target: backend, changeOrigin: true },
      '/integracaodominio/': { target: backend, changeOrigin: true },
      // Fiscal: the NF-e's DANFE and XML, the company's A1 certificate upload.
      '/pedidofatxml/': { target: backend, changeOrigin: true },
      '/empresasservicos/certificado/': { target: backend, changeOrigin: true },
      // Messaging: sending (multipart), the queue, the number's connection ('/whatsapp' alone is the screen).
      '/whatsapp/send': { target: backend, changeOrigin: true },
      '/whatsapp/messages': { target: backend, changeOrigin: true },
      '/whatsapp/status/': { target: backend, changeOrigin: true },
      '/whatsapp/auth': { target: backend, changeOrigin: true },
      '/whatsapp/reenviar/': { target: backend, changeOrigin: true },
      '/email/send': { target: backend, changeOrigin: true },
      // Reports: the definitions, the dashboard and every report call (POST only: a GET
      // of the same path is a screen).
      '/relatorios/': { target: backend, changeOrigin: true },
      '/dasboard/': { target: backend, changeOrigin: true },
      ...Object.fromEntries(
        [
          '/vendas/reports',
          '/relatoriovendasprodutos',
          '/relatoriovendasservico',
          '/curvaprodutos/reports',
          '/curvaClientes/reports',
          '/curvaGrupoProdutos/reports',
          '/curvaRepresentantes/reports',
          '/comissao/reports',
        ].map((p) => [p, { target: backend, changeOrigin: true }]),
      ),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: their own chunks stay cached across deploys.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          if (/node_modules\/(@apollo|graphql|graphql-ws|@wry|optimism|zen-observable|ts-invariant)/.test(id))
            return 'apollo';
          return undefined;
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // A screen test clicks through a form with user-event: on a 2-core CI machine
    // busy with the Rust build, 5 s (the default) is not always enough.
    testTimeout: 20_000,
  },
});
