// @ts-check
// The roller's configuration (written into the built script), its URLs and its messages.

export const CONFIG = Object.assign(
  {
    policy: "intent",
    version: "",
    loadTimeout: 120000,
    rollTimeout: 10000,
    maxLength: 500,
    runtime: { bytes: 0, download: 0 },
    engine: {},
    serviceWorker: null,
    offlineBytes: 0,
  },
  /*@saikoro-config*/null
);
export const script = /** @type {HTMLScriptElement | null} */ (
  document.currentScript || document.querySelector('script[src*="assets/saikoro/roller.js"]'));
export const BASE = new URL(".", script ? script.src : location.href);
export const ROOT = new URL("../../", BASE); // the site root: roller.js is in assets/saikoro/
export const RUNTIME_URL = new URL("micropython/", BASE).href;
export const VERSION = CONFIG.version ? "?v=" + encodeURIComponent(CONFIG.version) : "";
export const HISTORY = 5;
export const CHIPS = 12;

// A size as the reader reads it: "0.3 MB", "2.4 MB", "850 kB".
export function size(bytes) {
  if (bytes >= 1e6) return (bytes / 1e6).toFixed(1) + " MB";
  return Math.max(1, Math.round(bytes / 1e3)) + " kB";
}

export const MSG = {
  loading: "ダイスエンジンを読み込み中…",
  starting: "エンジンを準備中…",
  unsupported:
    "このブラウザは Web Worker か WebAssembly に対応していないため、ダイスを振れません",
  timeout:
    "ダイスエンジンの読み込みが時間切れになりました（通信が遅いか遮断されています）。もう一度押すと再試行します",
  failed: "ダイスエンジンを読み込めませんでした（オフラインか、通信が遮断されています）: ",
  worker: "ダイスエンジンのワーカーを起動できませんでした（オフラインか、ファイルが見つかりません）",
  rollTimeout: "計算に時間がかかりすぎたため中断しました",
  empty: "コマンドを入力してください",
  tooLong: "コマンドが長すぎます（" + CONFIG.maxLength + "文字まで）",
  copy: "コピー",
  copied: "コピーしました",
  copyFailed: "コピーできませんでした",
  share: "共有リンク",
  replay: "共有された結果を再現",
  badLink: "この共有リンクは読み取れません（",
  badLinkEnd: "）。リンクが途中で切れているか、書き換えられています。",
  linkOptions: "ルールオプションの形式が正しくありません",
  linkDice: "ダイスの目の形式が正しくありません",
  linkSystem: "このサイトにないシステムです",
  linkCommand: "コマンドが空か長すぎます",
  offlineOffer: "オフライン用に保存",
  offlineOfferTitle: "このサイトの全ページとダイスエンジンをこの端末に保存します（通信がなくても開けて、振れます）",
  offlineSaving: "オフライン用に保存中…",
  offlineReady: "この端末に保存済み：通信がなくても開けて、振れます",
  offlineEngine: "ダイスエンジンはこの端末に保存済み（通信がなくても振れます）",
  offlinePartial: "一部のファイルを保存できませんでした（通信が戻れば次に開いたとき保存します）",
};
