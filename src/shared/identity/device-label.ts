/** A short, human label for a User-Agent ("Chrome on Windows"); the full string is never shown or kept. */
export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = /\bEdg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /\b(OPR|Opera)\//.test(ua)
      ? 'Opera'
      : /\b(Firefox|FxiOS)\//.test(ua)
        ? 'Firefox'
        : /\bHeadlessChrome\//.test(ua)
          ? 'Headless Chrome'
          : /\bChromium\//.test(ua)
            ? 'Chromium'
            : /\b(Chrome|CriOS)\//.test(ua)
              ? 'Chrome'
              : /\bVersion\/[\d.]+.*Safari\//.test(ua)
                ? 'Safari'
                : null;
  const system = /\b(iPhone|iPad|iPod)\b/.test(ua)
    ? 'iOS'
    : /\bAndroid\b/.test(ua)
      ? 'Android'
      : /\bWindows\b/.test(ua)
        ? 'Windows'
        : /\bCrOS\b/.test(ua)
          ? 'ChromeOS'
          : /\bMac OS X\b|\bMacintosh\b/.test(ua)
            ? 'macOS'
            : /\bLinux\b/.test(ua)
              ? 'Linux'
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown browser';
}
