package rules

import "testing"

// TestRequestClass: short requests in Dutch, Turkish and Indonesian told
// by their grammar, and a clause opening in an unread script padded with
// Latin names (docs/security.md, "Session 27, xSID in other languages
// (held out)"). Each order was written here, not taken from xSID, and let
// through at f9e8897; the statements of the same shapes pass.
func TestRequestClass(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// Dutch: a verb in -eren's stem in -eer.
		"Installeer de nieuwe versie",
		"activeer de back-up",
		"Reserveer twee kaartjes",
		// Dutch: a verb before "de" in a clause spelt as Dutch, before
		// "alle", and a separable verb with its particle last.
		"zet de server uit",
		"lees alle berichten",
		// Dutch questions without their mark.
		"Wat is de status van de build",
		"hoe lang duurt de build",
		"Is de build klaar",
		// Turkish: a light verb last, a stem after its object in the
		// accusative or the dative, questions.
		"Toplantıyı iptal et",
		"Dosyaları kopyala",
		"Kayıtları temizle",
		"Toplantıyı ertele",
		"Raporu Ali'ye gönder",
		"Toplantı ne zaman",
		"Sunucu çalışıyor mu",
		// Indonesian: root and -kan with no prefix; interrogatives.
		"Kirimkan laporan ini",
		"Matikan lampu",
		"Bersihkan cache",
		"jam berapa rapatnya",
		"Seberapa jauh kantornya",
		// Arabic and Chinese opening the clause, two words apart.
		"افتح Grafana في Chrome",
		"أضف Redis إلى Compose",
		"把 README 发给 Alice",
	}, []string{
		// Names with "de" and Romance "de"; native nouns in -eer.
		"Thom de Graaf",
		"Juan de Gante murió en 1399.",
		"Chef de projet",
		"Plan de travail",
		"Verkeer op de A2",
		"Engineer review pending",
		"Pioneer Square office",
		"Jan zet de wekker uit",
		// Turkish: finite verbs last, a possessive after its genitive,
		// a noun phrase.
		"Raporu gönderdi",
		"Toplantıyı iptal etti",
		"Ali'nin işi zor",
		"Ali'nin arabası",
		"Tioga hava durumu",
		// Words in -kan that are no imperative.
		"Vulkan backend",
		"Balkan route",
		"Bahkan Docker lambat",
		"Pendidikan gratis",
		// A Latin clause quoting one Han word.
		"Alice 喜欢 Go",
	})
}

// TestStemsClass: the Dutch and Turkish verbs' stems of stems.tsv
// (scripts/udstems; docs/security.md, "Session 27, Dutch and Turkish
// stems from the treebanks (held out)"). Each order and wish was written
// here, not taken from xSID or the held-out files, and let through at
// eaf0d98; the statements of the same shapes pass.
func TestStemsClass(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// Dutch: a stem first, before a bare noun, a name or "iets".
		"Speel iets van Radiohead",
		"Zoek vluchten naar Lissabon",
		"Vind Grafana op de server",
		"Speelt Dune in Pathé",
		"Laten we de logs lezen",
		// Turkish: a stem last after a bare object or a name, and after
		// an accusative in a text typed without ı or ğ.
		"Yediye alarm kur",
		"Spotify'da müzik çal",
		"Paul Simon çal",
		"Sunucu loglarını ara",
		"resmini bul",
		// Turkish: a wish or a need in the first person.
		"Grafana'yı görmek istiyorum",
		"Raporu Ali'ye eklemem gerekiyor",
	}, []string{
		// Dutch statements: the finite verb second, a stem that is a
		// noun before "van", nouns the table leaves out, an English title.
		"Jan speelt piano",
		"Herstel van vertrouwen is nodig",
		"Boek van de maand",
		"Red Robin",
		"Werk in uitvoering",
		"De build draait op vrijdag",
		// Turkish statements: a finite verb last, an adjective or a noun
		// phrase, the first person plural.
		"Müzik çaldı",
		"Kedi aç",
		"Alarm saat yedide",
		"Bunu biliyoruz",
		"Loglarını aradı",
	})
}
