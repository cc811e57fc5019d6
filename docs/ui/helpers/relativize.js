'use strict'

// the URL of a page relative to the current one, so that the site works from the file system too
module.exports = (to, { data: { root } }) => {
  const from = root.page.url
  if (!to || !from || to.charAt(0) !== '/') return to
  const fromDir = from.substring(0, from.lastIndexOf('/') + 1)
  const fromParts = fromDir.split('/').filter(Boolean)
  const toParts = to.split('/').filter(Boolean)
  let common = 0
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++
  return '../'.repeat(fromParts.length - common) + toParts.slice(common).join('/')
}
