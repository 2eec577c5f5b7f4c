/** A multipart body with one file, as a browser's FormData sends it. */
export async function multipartBody(bytes: Buffer, filename: string, type = "text/csv") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get("content-type") ?? "",
  };
}
