import { Popover, Portal, Slider } from '@chakra-ui/react';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { StorageKeys, writeItem } from '../../../app/storage';
import { storedVolume } from '../../notifications/volume';

/** The notification volume: 0 to 1 in steps of 0.1, stored locally (spec 01 §9). */
export default function VolumePopover({ trigger }: { trigger: ReactElement }) {
  const { t } = useTranslation();
  const [volume, setVolume] = useState(storedVolume);
  return (
    <Popover.Root defaultOpen lazyMount unmountOnExit positioning={{ placement: 'bottom' }}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="52">
            <Popover.Body>
              <Slider.Root
                min={0}
                max={1}
                step={0.1}
                value={[volume]}
                onValueChange={(e) => {
                  const v = Math.round((e.value[0] ?? 0) * 10) / 10;
                  setVolume(v);
                  writeItem(StorageKeys.volume, String(v));
                }}
                aria-label={[t('topBar.volume')]}
                data-testid="volume-slider"
              >
                <Slider.Label textStyle="xs">{t('topBar.volume')}</Slider.Label>
                <Slider.Control>
                  <Slider.Track>
                    <Slider.Range />
                  </Slider.Track>
                  <Slider.Thumbs />
                </Slider.Control>
              </Slider.Root>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
