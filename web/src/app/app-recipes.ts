import {
  avatarSlotRecipe,
  badgeRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  menuSlotRecipe,
  popoverSlotRecipe,
  separatorRecipe,
  skeletonRecipe,
  sliderSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
} from '@chakra-ui/react/theme';
import { system } from './theme';

/**
 * The recipes of the components only the signed-in app shows (theme.ts has those of the public pages and the
 * toasts): imported by the signed-in layout for this effect, so they are on the system before it renders, and
 * they come with its code rather than with the login page. A component added to the signed-in app needs its
 * recipe here.
 *
 * Chakra (pinned 3.37.0) reads a recipe from its system's theme when a component first asks for it
 * (`getRecipeFn(key)`, then cached): adding it to that theme before then is as if it had been there from the
 * start. app/__tests__/app-recipes.test.ts checks this still holds.
 */
export const APP_RECIPES = {
  badge: badgeRecipe,
  code: codeRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  textarea: textareaRecipe,
  checkmark: checkmarkRecipe,
};
export const APP_SLOT_RECIPES = {
  avatar: avatarSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  menu: menuSlotRecipe,
  popover: popoverSlotRecipe,
  slider: sliderSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
};

const { theme } = system._config;
if (theme?.recipes && theme.slotRecipes) {
  Object.assign(theme.recipes, APP_RECIPES);
  Object.assign(theme.slotRecipes, APP_SLOT_RECIPES);
}
