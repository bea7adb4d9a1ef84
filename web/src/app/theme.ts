import { createSystem, defineConfig, mergeConfigs } from '@chakra-ui/react';
import { defaultBaseConfig } from '@chakra-ui/react/preset-base';
import {
  alertSlotRecipe,
  animationStyles,
  breakpoints,
  buttonRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  spinnerRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';
import { mark } from './perf';

/**
 * The colour palettes the app uses. Each palette is ~30 CSS variables the system computes at start-up,
 * on the path of every first paint; the unused ones (yellow, cyan, purple, pink) are left out.
 */
const PALETTES = ['gray', 'red', 'orange', 'green', 'teal', 'blue'];
const BASE_COLORS = ['transparent', 'current', 'black', 'white', 'whiteAlpha', 'blackAlpha'];
const pick = <T extends Record<string, unknown>>(obj: T, keys: string[]) =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => keys.includes(k))) as T;

/**
 * Chakra's default theme, with only the recipes of the components this app uses (the full set
 * weighs about 30 KB gzip more on every page). A component added to the app needs its recipe here, or in
 * app-recipes.ts when only the signed-in app shows it: here are those the public pages (sign-in, sign-up,
 * password reset, terms) and the toasts use, the rest comes with the signed-in layout.
 */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: pick(tokens.colors, [...BASE_COLORS, ...PALETTES]) },
    semanticTokens: { ...semanticTokens, colors: pick(semanticTokens.colors, ['bg', 'fg', 'border', ...PALETTES]) },
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      button: buttonRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      link: linkRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      field: fieldSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

const appTheme = defineConfig({
  globalCss: {
    'html, body, #root': { height: '100%' },
    body: { bg: 'bg.subtle', color: 'fg' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif` },
        body: { value: `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif` },
      },
    },
    semanticTokens: {
      colors: {
        'chat.bg': { value: { _light: '#efeae2', _dark: '#0b141a' } },
        'chat.mine': { value: { _light: '#d9fdd3', _dark: '#005c4b' } },
        'chat.theirs': { value: { _light: '#ffffff', _dark: '#202c33' } },
        'ack.read': { value: { _light: '#34b7f1', _dark: '#53bdeb' } },
        // a bubble's time and marks: readable on both bubbles (fg.muted is 3.1 on the dark theme's own bubble)
        'chat.meta': { value: { _light: '{colors.gray.600}', _dark: '{colors.gray.300}' } },
        // the app's colour behind white text (the top bar, every solid button): teal.700, not Chakra's teal.600,
        // which gives white text a contrast of 3.7 (WCAG AA asks 4.5; axe in the browser tests checks it)
        teal: { solid: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.700}' } } },
        // the same for green and orange (white on green.600 is 3.3, on orange.600 3.6): the tickets' age and unread
        // pills, the sent schedules on the calendar, the connection banner
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } } },
        orange: { solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.700}' } } },
      },
    },
  },
});

mark('theme-start');
export const system = createSystem(mergeConfigs(defaultBaseConfig, chakraTheme), appTheme);
mark('theme');
