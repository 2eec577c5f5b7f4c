/**
 * The otpauth:// link drawn as a QR code for an authenticator app to scan.
 * It is drawn here, on the server, as SVG markup: the secret reaches no other
 * service, and the console shows it as a data: image, which its
 * Content-Security-Policy already allows and in which no script can run.
 */
import QRCode, { type QRCodeToStringOptions } from "qrcode";

/**
 * Medium error correction keeps the modules large enough at 200 px for a
 * phone to read from a screen; the four-module quiet zone, in the package's
 * own black on white, is what scanners expect around a code, whatever is
 * drawn next to it.
 */
export const TOTP_QR_OPTIONS = {
  type: "svg",
  errorCorrectionLevel: "M",
  margin: 4,
} as const satisfies QRCodeToStringOptions;

export function totpQrCodeSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, TOTP_QR_OPTIONS);
}
