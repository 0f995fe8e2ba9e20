import { describe, expect, it } from 'vitest';
import { mediaFileName, renamedForUpload } from './media-file-name';

describe('quick message attachment names', () => {
  it('replaces spaces with underscores', () => {
    expect(mediaFileName('tabela de preços 2024.pdf')).toBe('tabela_de_preços_2024.pdf');
    expect(mediaFileName('a  \tb.png')).toBe('a_b.png');
    expect(mediaFileName('semespaco.jpg')).toBe('semespaco.jpg');
  });

  it('uploads the file under its new name with its content and type', () => {
    const file = new File(['hello'], 'minha foto.png', { type: 'image/png' });
    const renamed = renamedForUpload(file);
    expect(renamed.name).toBe('minha_foto.png');
    expect(renamed.type).toBe('image/png');
    expect(renamed.size).toBe(file.size);
  });
});
