import { Center, Spinner } from '@chakra-ui/react';

export function FullPageSpinner() {
  return (
    <Center h="100vh" data-testid="page-loading">
      <Spinner size="lg" color="teal.solid" />
    </Center>
  );
}
