import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  // jsdom's default width; tests that need another one set it themselves.
  window.innerWidth = 1024;
});
