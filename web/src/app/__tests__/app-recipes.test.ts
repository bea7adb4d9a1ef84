import { defaultSystem } from '@chakra-ui/react';
import { APP_RECIPES, APP_SLOT_RECIPES } from '../app-recipes';
import { system } from '../theme';

// The signed-in app's recipes reach the system after it is built (app-recipes.ts, with the layout's code):
// Chakra must read them from its theme when a component first asks, as it does in 3.37.0.
describe('the signed-in app recipes', () => {
  it('are the system’s recipes once app-recipes is loaded', () => {
    for (const [key, recipe] of Object.entries(APP_RECIPES)) {
      expect(system.isRecipe(key)).toBe(true);
      expect(system.getRecipe(key)).toBe(recipe);
    }
    for (const [key, recipe] of Object.entries(APP_SLOT_RECIPES)) {
      expect(system.isSlotRecipe(key)).toBe(true);
      expect(system.getSlotRecipe(key)).toBe(recipe);
    }
  });

  it('style their components as Chakra’s own system does', () => {
    const tabs = system.getSlotRecipeFn('tabs');
    const reference = defaultSystem.getSlotRecipeFn('tabs');
    expect(tabs.classNameMap).toEqual(reference.classNameMap);
    expect(system.getRecipeFn('badge').className).toBe(defaultSystem.getRecipeFn('badge').className);
    expect(Object.keys(system.getSlotRecipeFn('dialog').variantMap)).toEqual(
      Object.keys(defaultSystem.getSlotRecipeFn('dialog').variantMap),
    );
  });
});
