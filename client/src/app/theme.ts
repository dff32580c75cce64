import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/** The product's theme: Chakra's defaults, toasts above everything (spec 001 §9: base z-index 5000). */
export const system = createSystem(
  defaultConfig,
  defineConfig({
    globalCss: { 'html, body': { bg: 'bg.subtle' } },
    theme: {
      tokens: { zIndex: { toast: { value: 5000 } }, colors: { loading: { value: '#29d' } } },
      // Chakra's error red (red.500 on white, 3.76:1) is below WCAG AA for text such as the required-field
      // asterisk; red.600 is 4.83:1.
      semanticTokens: {
        colors: { fg: { error: { value: { _light: '{colors.red.600}', _dark: '{colors.red.400}' } } } },
      },
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
