export { buildTinyWhisperModel, SPELLED_LANGUAGE, SPELLED_WORDS, writeTinyWhisperModel, type TinyModelOptions } from './tiny-model.ts';
export { ffmpegBinary, renderCaptionFrame, silentClip, toneClip, videoOnlyClip } from './audio.ts';
