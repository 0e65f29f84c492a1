import { captionFontList } from '@clipshift/shared';
import { selectableFonts } from '../../engines/media/index.ts';
import { authedProcedure, router } from '../trpc.ts';

export const fontsRouter = router({
  // Signed in only, like every caption feature; the list is the same for everybody.
  list: authedProcedure.output(captionFontList).query(() => selectableFonts()),
});
