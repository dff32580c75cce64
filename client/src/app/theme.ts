import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/** The product's theme: Chakra's defaults, toasts above everything (spec 001 §9: base z-index 5000). */
export const system = createSystem(
  defaultConfig,
  defineConfig({
    globalCss: { 'html, body': { bg: 'bg.subtle' } },
    theme: {
      tokens: { zIndex: { toast: { value: 5000 } }, colors: { loading: { value: '#29d' } } },
      recipes: {
        // Chakra's solid button lightens on hover (solid/90: white on #3b73ed is 4.3:1); darken instead, keeping WCAG AA.
        button: {
          variants: {
            variant: { solid: { _hover: { bg: 'colorPalette.700' }, _expanded: { bg: 'colorPalette.700' } } },
          },
        },
      },
    },
  }),
);
