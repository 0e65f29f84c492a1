import { captionFontList } from '@clipshift/shared';
import { selectableFonts } from '../../engines/media/index.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

export const fontsRouter = router({
  // Signed in only, like every caption feature; the list is the same for everybody.
  list: authedProcedure.output(validated(captionFontList)).query(() => selectableFonts()),
});
